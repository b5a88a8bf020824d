// Benchmark metrics (metrics.h).
#include "eval/metrics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

namespace kgen::eval {

double pass_at_k(int n, int c, int k) {
  if (n <= 0 || c <= 0 || k <= 0) return 0.0;
  if (k > n) k = n;
  if (c > n) c = n;
  if (n - c < k) return 1.0;
  // 1 - C(n-c, k) / C(n, k) = 1 - prod_{i=n-c+1}^{n} (1 - k / i)
  double prod = 1.0;
  for (int i = n - c + 1; i <= n; ++i) prod *= 1.0 - double(k) / double(i);
  return 1.0 - prod;
}

namespace {

// NPUKernelBench's level weights (its docs/BENCHMARK_EVALUATION.md, "Aggregate Scores").
constexpr std::pair<int, double> kLevelWeights[] = {{1, 0.2}, {2, 0.3}, {3, 0.5}};

struct Acc {
  std::vector<const TaskCounts*> tasks;
  int samples = 0, correct = 0;
  double log_sum = 0;
  int log_n = 0;
};

GroupMetrics finish(const std::string& name, const Acc& a, const std::vector<int>& ks, const std::vector<double>& ps) {
  GroupMetrics g;
  g.name = name;
  g.tasks = int(a.tasks.size());
  g.samples = a.samples;
  g.correct_samples = a.correct;
  g.compile_at_k.assign(ks.size(), 0.0);
  g.pass_at_k.assign(ks.size(), 0.0);
  g.fast_at_k.assign(ps.size(), std::vector<double>(ks.size(), 0.0));
  const int kmax = ks.empty() ? 0 : *std::max_element(ks.begin(), ks.end());
  for (const TaskCounts* t : a.tasks) {
    if (t->n < kmax) ++g.clamped;
    for (size_t ki = 0; ki < ks.size(); ++ki) {
      g.compile_at_k[ki] += pass_at_k(t->n, t->c_compile, ks[ki]);
      g.pass_at_k[ki] += pass_at_k(t->n, t->c_correct, ks[ki]);
      for (size_t pi = 0; pi < ps.size(); ++pi) g.fast_at_k[pi][ki] += pass_at_k(t->n, t->c_fast[pi], ks[ki]);
    }
  }
  for (const TaskCounts* t : a.tasks) g.case_score += t->case_score;
  if (g.tasks > 0) {
    g.case_score /= g.tasks;
    for (auto& v : g.compile_at_k) v /= g.tasks;
    for (auto& v : g.pass_at_k) v /= g.tasks;
    for (auto& row : g.fast_at_k)
      for (auto& v : row) v /= g.tasks;
  }
  g.geomean_speedup = a.log_n > 0 ? std::exp(a.log_sum / a.log_n) : 0.0;
  return g;
}

nlohmann::json group_json(const GroupMetrics& g, const std::vector<int>& ks, const std::vector<double>& ps) {
  nlohmann::json j{{"name", g.name},
                   {"tasks", g.tasks},
                   {"samples", g.samples},
                   {"correct_samples", g.correct_samples},
                   {"clamped", g.clamped},
                   {"geomean_speedup", g.geomean_speedup},
                   {"case_score", g.case_score}};
  for (size_t ki = 0; ki < ks.size(); ++ki) {
    const std::string k = std::to_string(ks[ki]);
    j["compile@" + k] = g.compile_at_k[ki];
    j["pass@" + k] = g.pass_at_k[ki];
    for (size_t pi = 0; pi < ps.size(); ++pi) j[fmt::format("fast_{}@{}", ps[pi], ks[ki])] = g.fast_at_k[pi][ki];
  }
  return j;
}

}  // namespace

MetricsOptions metrics_options_for(const std::vector<EvalResult>& results) {
  std::map<std::string, int> n;
  int most = 0;
  for (const EvalResult& r : results) most = std::max(most, ++n[r.task_id]);
  MetricsOptions o;
  if (most > 1) o.ks = {1, most};
  return o;
}

WeightedScore weighted_score(const std::vector<GroupMetrics>& levels, const std::vector<TaskCounts>& tasks) {
  WeightedScore w;
  std::set<int> present;
  for (const TaskCounts& t : tasks) present.insert(t.level);
  double total = 0;
  for (auto [lv, weight] : kLevelWeights)
    if (present.count(lv)) total += weight;
  std::string parts, absent;
  for (auto [lv, weight] : kLevelWeights) {
    if (!present.count(lv)) {
      absent += (absent.empty() ? "L" : ", L") + std::to_string(lv);
      continue;
    }
    for (const GroupMetrics& g : levels)
      if (g.name == "level " + std::to_string(lv)) {
        w.weights.push_back({lv, weight / total});
        w.score += weight / total * g.case_score;
        parts += fmt::format("{}{:.3g} x L{} {:.1f}%", parts.empty() ? "" : " + ", weight / total, lv, 100 * g.case_score);
      }
  }
  std::string beyond;
  for (int lv : present)
    if (lv < 1 || lv > 3) beyond += (beyond.empty() ? "L" : ", L") + std::to_string(lv);
  w.note = "NPUKernelBench score (cases passed per task, averaged per level, levels weighted 0.2 / 0.3 / 0.5): " +
           fmt::format("{:.1f}", 100 * w.score) + (parts.empty() ? "" : " = " + parts) +
           (absent.empty() || parts.empty() ? "" : "; no " + absent + " task: the weights renormalised") +
           (beyond.empty() ? "" : "; " + beyond + " not weighted");
  return w;
}

Metrics compute_metrics(const std::vector<EvalResult>& results, const MetricsOptions& opt) {
  Metrics m;
  for (int k : opt.ks) {
    if (k > 0) m.ks.push_back(k);
    else m.notes.push_back(fmt::format("ignored k = {} (k must be at least 1)", k));
  }
  m.ps = opt.ps;
  std::map<std::string, TaskCounts> by_task;
  std::map<std::string, std::vector<double>> speedups;   // correct samples' speedups per task
  int at_perf = 0, at_check = 0;                           // where the correct samples' speedups were taken
  for (const EvalResult& r : results) {
    auto [it, fresh] = by_task.try_emplace(r.task_id);
    TaskCounts& t = it->second;
    if (fresh) {
      t.task_id = r.task_id;
      t.category = r.category;
      t.level = r.level;
      t.c_fast.assign(m.ps.size(), 0);
    }
    ++t.n;
    int passed = 0;
    for (const CaseResult& c : r.cases) passed += c.correct;
    // the mean over samples, kept as a running sum until all are in
    t.case_score += r.cases.empty() ? 0.0 : double(passed) / double(r.cases.size());
    if (r.verdict != Verdict::CompileError && r.verdict != Verdict::Cheating && r.verdict != Verdict::NoCode)
      ++t.c_compile;
    if (r.verdict == Verdict::Correct) {
      ++t.c_correct;
      for (size_t pi = 0; pi < m.ps.size(); ++pi)
        if (r.speedup > m.ps[pi]) ++t.c_fast[pi];
      speedups[r.task_id].push_back(r.speedup);
      ++(r.perf.timed() ? at_perf : at_check);
    }
  }
  Acc overall;
  std::map<int, Acc> levels;
  std::map<std::string, Acc> cats;
  const int kmax = m.ks.empty() ? 0 : *std::max_element(m.ks.begin(), m.ks.end());
  std::vector<std::string> clamped;
  int nonpositive = 0;
  for (auto& [id, t] : by_task) {
    t.case_score /= t.n;
    m.tasks.push_back(t);
    if (t.n < kmax) clamped.push_back(fmt::format("{} (n={})", id, t.n));
  }
  for (const TaskCounts& t : m.tasks) {
    for (Acc* a : {&overall, &levels[t.level], &cats[t.category]}) {
      a->tasks.push_back(&t);
      a->samples += t.n;
      a->correct += t.c_correct;
      for (double s : speedups[t.task_id]) {
        if (s > 0 && std::isfinite(s)) {
          a->log_sum += std::log(s);
          ++a->log_n;
        } else if (a == &overall) {
          ++nonpositive;
        }
      }
    }
  }
  m.overall = finish("overall", overall, m.ks, m.ps);
  for (auto& [lv, a] : levels) m.levels.push_back(finish("level " + std::to_string(lv), a, m.ks, m.ps));
  for (auto& [c, a] : cats) m.categories.push_back(finish(c, a, m.ks, m.ps));
  if (!m.tasks.empty()) m.npukb_score = weighted_score(m.levels, m.tasks);
  if (!clamped.empty()) {
    std::string list;
    for (size_t i = 0; i < clamped.size() && i < 10; ++i) list += (i ? ", " : "") + clamped[i];
    if (clamped.size() > 10) list += fmt::format(", ... ({} more)", clamped.size() - 10);
    m.notes.push_back(fmt::format("{} task(s) have fewer samples than k = {}; scored with k' = n: {}", clamped.size(),
                                  kmax, list));
  }
  if (at_perf + at_check > 0)
    m.notes.push_back(fmt::format("speedups (modeled): {} correct sample(s) at their task's perf shape (timing-only, "
                                  "the benchmark's size), {} at the check shapes (no PERF, or not timed)",
                                  at_perf, at_check));
  if (nonpositive > 0)
    m.notes.push_back(fmt::format("{} correct sample(s) without a positive finite speedup are left out of the geomean",
                                  nonpositive));
  return m;
}

std::string metrics_table(const Metrics& m) {
  int p1 = -1;
  for (size_t pi = 0; pi < m.ps.size(); ++pi)
    if (m.ps[pi] == 1.0) p1 = int(pi);
  size_t w0 = 8;
  for (const auto& g : m.categories) w0 = std::max(w0, g.name.size());
  std::vector<std::string> heads{"tasks"};
  for (int k : m.ks) {
    heads.push_back(fmt::format("compile@{}", k));
    heads.push_back(fmt::format("pass@{}", k));
    if (p1 >= 0) heads.push_back(fmt::format("fast_1@{}", k));
  }
  heads.push_back("cases");
  heads.push_back("geomean");
  std::string out = fmt::format("{:<{}}", "", w0);
  for (const auto& h : heads) out += fmt::format("  {:>10}", h);
  out += "\n";
  auto row = [&](const GroupMetrics& g) {
    std::string s = fmt::format("{:<{}}  {:>10}", g.name, w0, g.tasks);
    for (size_t ki = 0; ki < m.ks.size(); ++ki) {
      s += fmt::format("  {:>9.1f}%", 100 * g.compile_at_k[ki]);
      s += fmt::format("  {:>9.1f}%", 100 * g.pass_at_k[ki]);
      if (p1 >= 0) s += fmt::format("  {:>9.1f}%", 100 * g.fast_at_k[p1][ki]);
    }
    s += fmt::format("  {:>9.1f}%", 100 * g.case_score);
    s += g.correct_samples > 0 ? fmt::format("  {:>9.2f}x", g.geomean_speedup) : fmt::format("  {:>10}", "-");
    return s + "\n";
  };
  out += row(m.overall);
  for (const auto& g : m.levels) out += row(g);
  for (const auto& g : m.categories) out += row(g);
  if (!m.npukb_score.note.empty()) out += m.npukb_score.note + "\n";
  for (const auto& n : m.notes) out += "note: " + n + "\n";
  return out;
}

nlohmann::json to_json(const Metrics& m) {
  nlohmann::json j;
  j["ks"] = m.ks;
  j["ps"] = m.ps;
  j["overall"] = group_json(m.overall, m.ks, m.ps);
  j["levels"] = nlohmann::json::array();
  for (const auto& g : m.levels) j["levels"].push_back(group_json(g, m.ks, m.ps));
  j["categories"] = nlohmann::json::array();
  for (const auto& g : m.categories) j["categories"].push_back(group_json(g, m.ks, m.ps));
  j["tasks"] = nlohmann::json::array();
  for (const auto& t : m.tasks)
    j["tasks"].push_back({{"task_id", t.task_id},
                          {"category", t.category},
                          {"level", t.level},
                          {"n", t.n},
                          {"c_compile", t.c_compile},
                          {"c_correct", t.c_correct},
                          {"c_fast", t.c_fast},
                          {"case_score", t.case_score}});
  nlohmann::json weights = nlohmann::json::object();
  for (auto [lv, w] : m.npukb_score.weights) weights[std::to_string(lv)] = w;
  j["npukb_score"] = {{"score", m.npukb_score.score}, {"weights", weights}, {"note", m.npukb_score.note}};
  j["notes"] = m.notes;
  return j;
}

}  // namespace kgen::eval
