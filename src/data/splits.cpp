// The splits by task (splits.h).
#include "data/splits.h"

#include <algorithm>
#include <cmath>
#include <regex>

#include "op/project.h"
#include "sandbox/digest.h"

namespace kgen::data {
namespace {
// Whether a task file cites a benchmark. "KernelBench" alone, not as part of MultiKernelBench or NPUKernelBench.
bool cites(const std::string& text, const std::string& bench) {
  static const std::regex kb(R"((?:^|[^A-Za-z])KernelBench)");
  if (bench == "kernelbench") return std::regex_search(text, kb);
  if (bench == "multikernelbench") return text.find("MultiKernelBench") != std::string::npos;
  return text.find("NPUKernelBench") != std::string::npos;
}
}  // namespace

bool split_tasks(const std::vector<eval::BenchTask>& tasks, const std::vector<std::string>& hold_out,
                 double validation, uint64_t seed, Splits& s, std::string& err) {
  static const std::set<std::string> benchmarks = {"kernelbench", "multikernelbench", "npukernelbench"};
  std::map<std::string, int> held_by;
  for (const auto& h : hold_out) {
    if (h.empty()) {
      err = "--hold-out needs a benchmark name (kernelbench, multikernelbench, npukernelbench) or a task id prefix";
      return false;
    }
    held_by[h] = 0;
  }
  std::vector<std::pair<std::string, std::string>> order;   // (digest, id) of the tasks not held out
  for (const auto& t : tasks) {
    const std::string text = hold_out.empty() ? "" : op::read_text(t.path);
    bool held = false;
    for (const auto& h : hold_out) {
      std::string name = h;
      std::transform(name.begin(), name.end(), name.begin(), ::tolower);
      const bool hit = benchmarks.count(name) ? cites(text, name) : t.id.rfind(h, 0) == 0;
      held_by[h] += hit;
      held = held || hit;
    }
    if (held) {
      s.of[t.id] = "test";
    } else {
      Digest d;
      d.add(std::to_string(seed)).add(t.id);
      order.push_back({d.hex(), t.id});
    }
  }
  for (const auto& [h, n] : held_by)
    if (n == 0) s.notes.push_back("--hold-out " + h + " matches no task");
  std::sort(order.begin(), order.end());
  const size_t n_val = static_cast<size_t>(std::llround(validation * static_cast<double>(order.size())));
  for (size_t i = 0; i < order.size(); ++i) s.of[order[i].second] = i < n_val ? "validation" : "train";
  for (const auto& [id, sp] : s.of) {
    ++s.tasks[sp];
    if (sp != "train") s.hidden.insert(id);
  }
  return true;
}
}  // namespace kgen::data
