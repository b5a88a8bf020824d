// The trusted side of an NPUKernelBench evaluation (python/kgen_npukb/reference.py, never in the sandbox): a task's
// reference data made once per task, seed and scripts and kept in the cache, and the judge of a candidate's outputs.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/evaluate.h"

namespace kgen::eval {
// A task's reference data bigger than this (inputs, outputs, traces) is made again by every evaluation instead of
// being kept: one GiB-sized case should not fill the cache.
constexpr size_t kNpukbKeepBytes = 512ull << 20;

struct NpukbReference {
  std::string dir;          // in/ (the candidate's inputs), ref/ (Model's outputs), trace/, bind/op.cpp
  nlohmann::json manifest;  // reference.py's answer: op, kernel, level, category, cases
  bool reused = false;      // read from the cache, no Python started
};

// The reference data of `task` (an absolute path) at o.seed. Kept under <cache>/npukb-ref/<key>, the key a digest
// of the validation/ files, the task path, the seed and kgen's NPUKernelBench scripts, so an unchanged task is
// evaluated again without importing torch and running Model (2-3 s an evaluation); data over kNpukbKeepBytes are made
// under `scratch` instead. False with the task's failure in R.
bool npukb_reference(const EvalOptions& o, const std::string& task, const std::string& scratch, EvalResult& R,
                     NpukbReference& out);

// Runs reference.py with `args` (its subcommand first); its one JSON object, or the task's failure in R.
bool npukb_trusted(const EvalOptions& o, const std::vector<std::string>& args, EvalResult& R, nlohmann::json& out);
}  // namespace kgen::eval
