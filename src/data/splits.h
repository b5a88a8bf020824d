// The splits of `kgen data build`, by task (build.h): test = the held-out tasks, validation = a seeded fraction of
// the rest, train = the others. A row goes where its task is; no prompt shows a solution of a `hidden` task.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "eval/bench.h"

namespace kgen::data {
inline constexpr const char* kSplitNames[] = {"train", "validation", "test"};
struct Splits {
  std::map<std::string, std::string> of;      // task id -> "train", "validation", "test"
  std::set<std::string> hidden;               // validation and test task ids
  std::map<std::string, int> tasks;           // split -> tasks
  std::vector<std::string> notes;             // a --hold-out that matches no task
};
// hold_out: "kernelbench", "multikernelbench", "npukernelbench" (the tasks whose file cites that benchmark: their
// perf shape's source or origin) or a task id prefix. validation: the fraction of the other tasks, chosen by the
// SHA-256 of the seed and the task id. False with err on an empty hold-out name.
bool split_tasks(const std::vector<eval::BenchTask>& tasks, const std::vector<std::string>& hold_out,
                 double validation, uint64_t seed, Splits& s, std::string& err);
}  // namespace kgen::data
