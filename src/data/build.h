// `kgen data build --out DIR`: the whole dataset from the suite, every row backed by kgen's own verdict, split by
// task (docs/data.md):
//   sft, repair, dpo     from results stores (kgen data export; by default a fresh expert-library bench)
//   sft (ascendc)        each correct expert tile program compiled to its op project, the reply re-evaluated as an
//                        AscendC candidate before it is kept
//   reasoning            the same with the compiler's reasoning (tile/explain.h) at the task's perf shape
//   error-fix            kgen data mutate over op projects and tile programs
//   rl                   one prompt row per task and target: verl (parquet and JSON lines) and TRL
// Splits: test = the held-out tasks (--hold-out: a benchmark name or task ids/prefixes), validation = a seeded
// fraction of the rest, by task; a row goes where its task is, and no train prompt shows a held-out task's solution.
// A card (README.md, card.json): rows per split, kind, category, level, source and error class, and a token-length
// histogram.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "data/card.h"

namespace kgen::data {
struct BuildOptions {
  std::string out;                      // the dataset folder (created; existing dataset files are replaced)
  std::string suite;                    // default the source tree's tasks/
  std::string filter;                   // task ids containing this (a smaller dataset)
  std::vector<std::string> stores;      // results stores to export; none: an expert-library bench into OUT/work/expert
  std::vector<std::string> mutate;      // candidate folders for error-fix rows; none: candidates/ and kernels/
  bool no_mutate = false;               // no error-fix rows
  bool any_version = false;             // export results a store holds from another kgen version too
  std::vector<std::string> hold_out;    // test split: kernelbench, multikernelbench, npukernelbench, or task id prefixes
  double validation = 0.1;              // fraction of the other tasks
  uint64_t seed = 0;
  std::string soc = "Ascend910B2";
  int jobs = 2;
};
using BuildSummary = DatasetCard;   // what was written: card.h
// 0 when the dataset is written; 2 with err on a wrong option; 1 with err when a step cannot run.
int build_dataset(const BuildOptions& o, BuildSummary& s, std::string& err);
std::string build_summary_text(const BuildOptions& o, const BuildSummary& s);
}  // namespace kgen::data
