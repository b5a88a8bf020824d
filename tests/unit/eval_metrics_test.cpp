// Benchmark metrics (src/eval/metrics.*) against brute-force enumeration of k-subsets of the samples.
#include <cmath>
#include <algorithm>
#include <map>
#include <set>
#include <random>

#include <gtest/gtest.h>

#include "eval/metrics.h"

using namespace kgen::eval;

namespace {

// Fraction of the k-subsets of `good` (one flag per sample) that contain at least one true: the expectation that
// pass@k estimates, computed by enumeration (k clamped to n, the documented rule).
double brute_at_k(const std::vector<bool>& good, int k) {
  const int n = int(good.size());
  if (n == 0) return 0;
  if (k > n) k = n;
  long total = 0, hit = 0;
  for (unsigned mask = 0; mask < (1u << n); ++mask) {
    if (__builtin_popcount(mask) != k) continue;
    ++total;
    bool any = false;
    for (int i = 0; i < n; ++i)
      if ((mask >> i) & 1u) any = any || good[i];
    hit += any;
  }
  return double(hit) / double(total);
}

EvalResult res(const std::string& task, const std::string& cat, int level, Verdict v, double speedup = 0) {
  EvalResult r;
  r.task_id = task;
  r.category = cat;
  r.level = level;
  r.verdict = v;
  r.speedup = speedup;
  return r;
}

}  // namespace

TEST(EvalMetrics, PassAtKMatchesSubsetEnumeration) {
  for (int n = 1; n <= 10; ++n)
    for (int c = 0; c <= n; ++c)
      for (int k = 1; k <= n; ++k) {
        std::vector<bool> good(n, false);
        for (int i = 0; i < c; ++i) good[i] = true;   // which ones does not matter to the count
        EXPECT_NEAR(pass_at_k(n, c, k), brute_at_k(good, k), 1e-12) << "n=" << n << " c=" << c << " k=" << k;
      }
  EXPECT_EQ(pass_at_k(0, 0, 1), 0.0);
  // Large n stays finite and in [0, 1] (the product form, not binomials).
  double v = pass_at_k(2000, 3, 100);
  EXPECT_GT(v, 0.0);
  EXPECT_LT(v, 1.0);
  EXPECT_NEAR(v, 1 - std::exp(std::lgamma(1998.0) - std::lgamma(1898.0) - (std::lgamma(2001.0) - std::lgamma(1901.0))),
              1e-9);
}

// Random results over several tasks, categories and levels; every group metric against brute force per task.
TEST(EvalMetrics, GroupsAgainstBruteForce) {
  std::mt19937 rng(7);
  const std::vector<std::string> cats{"activation", "reduce", "matmul"};
  const std::vector<Verdict> verdicts{Verdict::CompileError, Verdict::RuntimeError, Verdict::Timeout,
                                      Verdict::WrongAnswer, Verdict::Cheating, Verdict::Correct};
  const std::vector<double> speeds{0.3, 0.5, 0.8, 0.9, 1.0, 1.2, 1.5, 2.0, 3.0};
  std::vector<EvalResult> results;
  struct Task { std::string cat; int level; std::vector<EvalResult> rs; };
  std::map<std::string, Task> tasks;
  for (int t = 0; t < 12; ++t) {
    std::string id = "t" + std::to_string(t);
    std::string cat = cats[rng() % cats.size()];
    int level = 1 + int(rng() % 3);
    int n = 3 + int(rng() % 5);   // 3..7 >= k
    for (int s = 0; s < n; ++s) {
      Verdict v = verdicts[rng() % verdicts.size()];
      if (rng() % 2) v = Verdict::Correct;
      EvalResult r = res(id, cat, level, v, v == Verdict::Correct ? speeds[rng() % speeds.size()] : 0.0);
      r.sample = s;
      results.push_back(r);
      tasks[id].cat = cat;
      tasks[id].level = level;
      tasks[id].rs.push_back(r);
    }
  }
  std::shuffle(results.begin(), results.end(), rng);   // order must not matter
  MetricsOptions opt;
  opt.ks = {1, 2, 3};
  Metrics m = compute_metrics(results, opt);
  ASSERT_EQ(m.tasks.size(), tasks.size());
  // The one note says where the speedups were taken: no result here has a timed perf shape.
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find(" 0 correct sample(s) at their task's perf shape"), std::string::npos) << m.notes[0];

  // Expected per group: mean over its tasks of the brute-force values.
  auto expected = [&](auto in_group, auto flag, int k) {
    double sum = 0;
    int count = 0;
    for (auto& [id, t] : tasks) {
      if (!in_group(t)) continue;
      std::vector<bool> good;
      for (const EvalResult& r : t.rs) good.push_back(flag(r));
      sum += brute_at_k(good, k);
      ++count;
    }
    return count ? sum / count : 0.0;
  };
  auto geomean = [&](auto in_group) {
    double prod_log = 0;
    int cnt = 0;
    for (auto& [id, t] : tasks)
      if (in_group(t))
        for (const EvalResult& r : t.rs)
          if (r.verdict == Verdict::Correct) { prod_log += std::log2(r.speedup); ++cnt; }
    return cnt ? std::pow(2.0, prod_log / cnt) : 0.0;
  };
  auto check = [&](const GroupMetrics& g, auto in_group) {
    int ntasks = 0;
    for (auto& [id, t] : tasks) ntasks += in_group(t);
    EXPECT_EQ(g.tasks, ntasks) << g.name;
    for (size_t ki = 0; ki < opt.ks.size(); ++ki) {
      int k = opt.ks[ki];
      EXPECT_NEAR(g.compile_at_k[ki],
                  expected(in_group, [](const EvalResult& r) {
                    return r.verdict != Verdict::CompileError && r.verdict != Verdict::Cheating; }, k),
                  1e-12) << g.name << " compile@" << k;
      EXPECT_NEAR(g.pass_at_k[ki], expected(in_group, [](const EvalResult& r) { return r.verdict == Verdict::Correct; }, k),
                  1e-12) << g.name << " pass@" << k;
      for (size_t pi = 0; pi < m.ps.size(); ++pi) {
        double p = m.ps[pi];
        EXPECT_NEAR(g.fast_at_k[pi][ki],
                    expected(in_group, [p](const EvalResult& r) { return r.verdict == Verdict::Correct && r.speedup > p; }, k),
                    1e-12) << g.name << " fast_" << p << "@" << k;
      }
    }
    EXPECT_NEAR(g.geomean_speedup, geomean(in_group), 1e-12) << g.name;
  };
  check(m.overall, [](const Task&) { return true; });
  std::set<int> levels;
  std::set<std::string> cs;
  for (auto& [id, t] : tasks) { levels.insert(t.level); cs.insert(t.cat); }
  ASSERT_EQ(m.levels.size(), levels.size());
  ASSERT_EQ(m.categories.size(), cs.size());
  for (const GroupMetrics& g : m.levels) {
    int lv = std::stoi(g.name.substr(6));
    check(g, [lv](const Task& t) { return t.level == lv; });
  }
  for (const GroupMetrics& g : m.categories) {
    std::string c = g.name;
    check(g, [c](const Task& t) { return t.cat == c; });
  }
  // fast_0 equals pass (every correct speedup here is > 0).
  for (size_t ki = 0; ki < opt.ks.size(); ++ki) EXPECT_DOUBLE_EQ(m.overall.fast_at_k[0][ki], m.overall.pass_at_k[ki]);
}

TEST(EvalMetrics, FastPIsStrictlyGreater) {
  std::vector<EvalResult> rs{
      res("a", "x", 1, Verdict::Correct, 1.0),        // exactly 1: not fast_1 (KernelBench: speedup > p)
      res("b", "x", 1, Verdict::Correct, 1.0000001),  // fast_1
      res("c", "x", 1, Verdict::Correct, 0.5),        // fast_0, not fast_0.5
      res("d", "x", 1, Verdict::WrongAnswer, 5.0),    // never fast: not correct
      res("e", "x", 1, Verdict::Correct, 2.0),        // fast_1.5, not fast_2
  };
  Metrics m = compute_metrics(rs);
  ASSERT_EQ(m.ps, (std::vector<double>{0, 0.5, 0.8, 1, 1.5, 2}));
  auto frac = [&](double p) {
    int c = 0;
    for (const auto& r : rs) c += r.verdict == Verdict::Correct && r.speedup > p;
    return double(c) / rs.size();
  };
  for (size_t pi = 0; pi < m.ps.size(); ++pi) EXPECT_DOUBLE_EQ(m.overall.fast_at_k[pi][0], frac(m.ps[pi])) << m.ps[pi];
  EXPECT_DOUBLE_EQ(m.overall.fast_at_k[3][0], 2.0 / 5);   // b, e
  EXPECT_DOUBLE_EQ(m.overall.fast_at_k[5][0], 0.0);       // nobody > 2
  EXPECT_DOUBLE_EQ(m.overall.pass_at_k[0], 4.0 / 5);
  EXPECT_DOUBLE_EQ(m.overall.compile_at_k[0], 1.0);
  // geomean over the 4 correct samples.
  EXPECT_NEAR(m.overall.geomean_speedup, std::pow(1.0 * 1.0000001 * 0.5 * 2.0, 0.25), 1e-12);
}

TEST(EvalMetrics, GeomeanAndCompileCounts) {
  std::vector<EvalResult> rs{res("a", "x", 1, Verdict::Correct, 2.0), res("a", "x", 1, Verdict::Correct, 8.0),
                             res("a", "x", 1, Verdict::Cheating), res("a", "x", 1, Verdict::CompileError),
                             res("b", "y", 2, Verdict::Timeout), res("b", "y", 2, Verdict::RuntimeError)};
  Metrics m = compute_metrics(rs);
  EXPECT_NEAR(m.overall.geomean_speedup, 4.0, 1e-12);   // sqrt(2 * 8)
  ASSERT_EQ(m.categories.size(), 2u);
  EXPECT_EQ(m.categories[1].name, "y");
  EXPECT_EQ(m.categories[1].geomean_speedup, 0.0);       // no correct sample
  EXPECT_EQ(m.tasks[0].n, 4);
  EXPECT_EQ(m.tasks[0].c_compile, 2);                    // cheating and compile-error did not compile
  EXPECT_EQ(m.tasks[0].c_correct, 2);
  EXPECT_EQ(m.tasks[1].c_compile, 2);
  // compile@1: task a 2/4, task b 2/2 -> mean 0.75; pass@1: a 2/4, b 0 -> 0.25.
  EXPECT_DOUBLE_EQ(m.overall.compile_at_k[0], (2.0 / 4 + 1.0) / 2);
  EXPECT_DOUBLE_EQ(m.overall.pass_at_k[0], (2.0 / 4 + 0.0) / 2);
  ASSERT_EQ(m.levels.size(), 2u);
  EXPECT_EQ(m.levels[0].name, "level 1");
  EXPECT_EQ(m.levels[1].name, "level 2");
  EXPECT_DOUBLE_EQ(m.levels[0].pass_at_k[0], 0.5);
  EXPECT_DOUBLE_EQ(m.levels[1].pass_at_k[0], 0.0);
}

TEST(EvalMetrics, KGreaterThanNUsesN) {
  // Task a: 1 sample, correct; task b: 2 samples, one correct; task c: 5 samples, one correct. k = 5.
  std::vector<EvalResult> rs{res("a", "x", 1, Verdict::Correct, 1.5), res("b", "x", 1, Verdict::Correct, 1.5),
                             res("b", "x", 1, Verdict::WrongAnswer)};
  for (int i = 0; i < 5; ++i) rs.push_back(res("c", "x", 1, i == 0 ? Verdict::Correct : Verdict::WrongAnswer, 1.5));
  MetricsOptions opt;
  opt.ks = {1, 5};
  Metrics m = compute_metrics(rs, opt);
  // k = 5 scored with k' = n: a -> 1, b -> pass@2 of (1 of 2) = 1, c -> pass@5 of (1 of 5) = 1.
  EXPECT_DOUBLE_EQ(m.overall.pass_at_k[1], (brute_at_k({true}, 1) + brute_at_k({true, false}, 2) +
                                            brute_at_k({true, false, false, false, false}, 5)) / 3);
  EXPECT_DOUBLE_EQ(m.overall.pass_at_k[0], (1.0 + 0.5 + 0.2) / 3);
  EXPECT_EQ(m.overall.clamped, 2);
  ASSERT_FALSE(m.notes.empty());
  EXPECT_NE(m.notes[0].find("a (n=1)"), std::string::npos) << m.notes[0];
  EXPECT_NE(m.notes[0].find("b (n=2)"), std::string::npos) << m.notes[0];
}

TEST(EvalMetrics, TableAndJson) {
  std::vector<EvalResult> rs{res("act/relu", "activation", 1, Verdict::Correct, 1.25),
                             res("red/sum", "reduce", 2, Verdict::WrongAnswer),
                             res("act/gelu", "activation", 1, Verdict::CompileError)};
  Metrics m = compute_metrics(rs);
  std::string t = metrics_table(m);
  for (const char* s : {"overall", "level 1", "level 2", "activation", "reduce", "tasks", "compile@1", "pass@1",
                        "fast_1@1", "geomean", "1.25x"})
    EXPECT_NE(t.find(s), std::string::npos) << s << "\n" << t;
  nlohmann::json j = to_json(m);
  EXPECT_DOUBLE_EQ(j["overall"]["pass@1"].get<double>(), 1.0 / 3);
  EXPECT_DOUBLE_EQ(j["overall"]["fast_1@1"].get<double>(), 1.0 / 3);
  EXPECT_DOUBLE_EQ(j["overall"]["fast_1.5@1"].get<double>(), 0.0);
  EXPECT_EQ(j["categories"].size(), 2u);
  EXPECT_EQ(j["tasks"].size(), 3u);
}

namespace {
// A bench of K samples per task reports @1 and @K (kgen bench --samples K), one sample per task only @1.
TEST(Metrics, TheKsFollowTheSampleCounts) {
  std::vector<EvalResult> one = {res("a/x", "a", 1, Verdict::Correct), res("a/y", "a", 1, Verdict::WrongAnswer)};
  EXPECT_EQ(metrics_options_for(one).ks, std::vector<int>{1});
  std::vector<EvalResult> many = one;
  for (int i = 0; i < 3; ++i) many.push_back(res("a/y", "a", 1, i == 2 ? Verdict::Correct : Verdict::WrongAnswer));
  const MetricsOptions o = metrics_options_for(many);
  EXPECT_EQ(o.ks, (std::vector<int>{1, 4}));
  const Metrics m = compute_metrics(many, o);
  ASSERT_EQ(m.overall.pass_at_k.size(), 2u);
  EXPECT_DOUBLE_EQ(m.overall.pass_at_k[1], (1.0 + 1.0) / 2);   // a/x (n = 1, k' = 1) and a/y (one of four) pass
  EXPECT_DOUBLE_EQ(m.overall.pass_at_k[0], (1.0 + 0.25) / 2);
}
}  // namespace

namespace {
// A result with `passed` of `total` cases correct (the verdict follows: correct only when all pass).
EvalResult with_cases(const std::string& task, int level, int passed, int total) {
  EvalResult r = res(task, "Math", level, passed == total && total > 0 ? Verdict::Correct : Verdict::WrongAnswer, 1);
  for (int i = 0; i < total; ++i) {
    CaseResult c;
    c.name = "#" + std::to_string(i);
    c.correct = i < passed;
    r.cases.push_back(c);
  }
  return r;
}
}  // namespace

// NPUKernelBench's task score (cases passed / cases), level means and its 0.2 / 0.3 / 0.5 weighting, computed by hand.
TEST(EvalMetrics, CaseScoreAndNpukbWeightedScore) {
  std::vector<EvalResult> rs = {with_cases("Math/a", 1, 4, 4), with_cases("Math/b", 1, 1, 4),
                                with_cases("Math/c", 2, 2, 5), with_cases("Math/d", 3, 0, 3),
                                with_cases("Math/e", 3, 3, 3)};
  rs.push_back(res("Math/f", "Math", 2, Verdict::CompileError));   // no case ran: scores 0
  const Metrics m = compute_metrics(rs);
  const double l1 = (1.0 + 0.25) / 2, l2 = (0.4 + 0.0) / 2, l3 = (0.0 + 1.0) / 2;
  ASSERT_EQ(m.levels.size(), 3u);
  EXPECT_NEAR(m.levels[0].case_score, l1, 1e-12);
  EXPECT_NEAR(m.levels[1].case_score, l2, 1e-12);
  EXPECT_NEAR(m.levels[2].case_score, l3, 1e-12);
  EXPECT_NEAR(m.overall.case_score, (1.0 + 0.25 + 0.4 + 0 + 0 + 1) / 6, 1e-12);
  EXPECT_NEAR(m.npukb_score.score, 0.2 * l1 + 0.3 * l2 + 0.5 * l3, 1e-12);
  EXPECT_EQ(m.npukb_score.note.find("renormalised"), std::string::npos);
  EXPECT_NE(metrics_table(m).find("NPUKernelBench score"), std::string::npos);
  EXPECT_NEAR(to_json(m)["npukb_score"]["score"].get<double>(), m.npukb_score.score, 1e-12);

  // Two samples of one task: the task's score is their mean. Without a level-3 task the weights are renormalised.
  std::vector<EvalResult> two = {with_cases("Math/a", 1, 4, 4), with_cases("Math/a", 1, 2, 4),
                                 with_cases("Math/c", 2, 1, 2)};
  two[1].sample = 1;
  const Metrics m2 = compute_metrics(two, metrics_options_for(two));
  EXPECT_NEAR(m2.tasks[0].case_score, 0.75, 1e-12);
  EXPECT_NEAR(m2.npukb_score.score, 0.2 / 0.5 * 0.75 + 0.3 / 0.5 * 0.5, 1e-12);
  EXPECT_NE(m2.npukb_score.note.find("no L3 task: the weights renormalised"), std::string::npos);
}
