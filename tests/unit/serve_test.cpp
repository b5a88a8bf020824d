// kgen serve's pieces without HTTP: the reward kinds and their constants, dataset labels, request validation, and
// the pool's queue bound (tests/serve_test.sh drives the service itself).
#include <gtest/gtest.h>

#include <filesystem>

#include "serve/job.h"
#include "serve/pool.h"
#include "serve/reward.h"

namespace {
using kgen::eval::EvalResult;
using kgen::eval::Verdict;
using nlohmann::json;

EvalResult result(Verdict v, double speedup = 0) {
  EvalResult r;
  r.verdict = v;
  r.speedup = speedup;
  return r;
}

TEST(ServeReward, SpeedupKindIsHalfCorrectPlusHalfCappedSpeedup) {
  kgen::serve::RewardConfig c;
  EXPECT_DOUBLE_EQ(kgen::serve::reward_of(result(Verdict::Correct, 2.0), c).total, 0.5 + 0.5 * 2.0);
  EXPECT_DOUBLE_EQ(kgen::serve::reward_of(result(Verdict::Correct, 7.0), c).total, 0.5 + 0.5 * 3.0);
  EXPECT_DOUBLE_EQ(kgen::serve::reward_of(result(Verdict::WrongAnswer, 9.0), c).total, 0.0);
  EXPECT_DOUBLE_EQ(kgen::serve::reward_of(result(Verdict::CompileError), c).total, 0.0);
  auto hack = kgen::serve::reward_of(result(Verdict::Cheating, 5.0), c);
  EXPECT_DOUBLE_EQ(hack.total, -1.0);
  EXPECT_LT(hack.total, kgen::serve::reward_of(result(Verdict::CompileError), c).total);
  EXPECT_DOUBLE_EQ(hack.components["penalty"].get<double>(), -1.0);
  std::string err;
  ASSERT_TRUE(kgen::serve::reward_config("speedup", json{{"speedup_floor", 1.5}}, c, err)) << err;
  EXPECT_DOUBLE_EQ(kgen::serve::reward_of(result(Verdict::Correct, 1.2), c).total, 0.5);   // below the floor
}

TEST(ServeReward, WeightedAndTieredKinds) {
  kgen::serve::RewardConfig w, t;
  std::string err;
  ASSERT_TRUE(kgen::serve::reward_config("weighted", nullptr, w, err));
  EXPECT_DOUBLE_EQ(kgen::serve::reward_of(result(Verdict::Correct, 1.005), w).total, 0.5);   // within eps
  EXPECT_DOUBLE_EQ(kgen::serve::reward_of(result(Verdict::Correct, 1.02), w).total, 1.0);
  ASSERT_TRUE(kgen::serve::reward_config("tiered", nullptr, t, err));
  const std::pair<double, double> tiers[] = {{3.5, 1.0}, {2.0, 0.8}, {1.6, 0.6}, {1.2, 0.4}, {1.0, 0.2}, {0.7, -0.1}};
  for (auto [s, want] : tiers) EXPECT_DOUBLE_EQ(kgen::serve::reward_of(result(Verdict::Correct, s), t).total, want) << s;
  EXPECT_DOUBLE_EQ(kgen::serve::reward_of(result(Verdict::RuntimeError), t).total, -0.3);
  EXPECT_DOUBLE_EQ(kgen::serve::reward_of(result(Verdict::NoCode), t).total, -0.5);
  EXPECT_DOUBLE_EQ(kgen::serve::reward_of(result(Verdict::Cheating), t).total, -1.0);
}

TEST(ServeReward, UnknownKindOrFieldIsRefusedWithTheKnownOnes) {
  kgen::serve::RewardConfig c;
  std::string err;
  EXPECT_FALSE(kgen::serve::reward_config("linear", nullptr, c, err));
  EXPECT_NE(err.find("speedup, weighted, tiered"), std::string::npos) << err;
  EXPECT_FALSE(kgen::serve::reward_config("speedup", json{{"cap", 2}}, c, err));
  EXPECT_NE(err.find("unknown"), std::string::npos) << err;
  EXPECT_FALSE(kgen::serve::reward_config("speedup", json{{"speedup_cap", "2"}}, c, err));
  EXPECT_NE(err.find("not a number"), std::string::npos) << err;
}

TEST(ServeLabel, TaskIdTargetPrefixAndJson) {
  json r;
  std::string err;
  ASSERT_TRUE(kgen::serve::request_of_label("activation/relu", r, err));
  EXPECT_EQ(r, json({{"task_id", "activation/relu"}}));
  ASSERT_TRUE(kgen::serve::request_of_label("mkb:math/add", r, err));
  EXPECT_EQ(r, json({{"task_id", "math/add"}, {"target", "mkb"}}));
  ASSERT_TRUE(kgen::serve::request_of_label(R"({"task_id": "x/y", "num_correct_trials": 2})", r, err));
  EXPECT_EQ(r["num_correct_trials"], 2);
  EXPECT_FALSE(kgen::serve::request_of_label("{not json", r, err));
  EXPECT_FALSE(kgen::serve::request_of_label(json(3), r, err));
}

kgen::serve::ServeConfig config(const std::string& work) {
  kgen::serve::ServeConfig c;
  c.suite = std::string(KGEN_SOURCE_DIR) + "/tasks";
  c.work = work;
  return c;
}

TEST(ServeJob, ValidationErrorsNameTheFieldAndStatus) {
  auto dir = std::filesystem::temp_directory_path() / ("kgen-serve-unit-" + std::to_string(::getpid()));
  auto cfg = config(dir.string());
  kgen::serve::Job j;
  kgen::serve::BadRequest e;
  EXPECT_FALSE(kgen::serve::parse_job(json::array(), cfg, j, e));
  EXPECT_EQ(e.status, 400);
  EXPECT_FALSE(kgen::serve::parse_job({{"task_id", "no/such"}, {"kernel_code", "x"}}, cfg, j, e));
  EXPECT_EQ(e.status, 404);
  EXPECT_FALSE(kgen::serve::parse_job({{"task_id", "activation/relu"}}, cfg, j, e));
  EXPECT_EQ(e.status, 422);
  EXPECT_NE(e.message.find("kernel_code"), std::string::npos);
  EXPECT_FALSE(kgen::serve::parse_job({{"task_id", "activation/relu"}, {"kernel_code", "x"}, {"num_correct_trials", 21}},
                                      cfg, j, e));
  EXPECT_NE(e.message.find("[1, 20]"), std::string::npos) << e.message;
  EXPECT_FALSE(kgen::serve::parse_job({{"task_id", "../x"}, {"kernel_code", "x"}, {"reference_code", "y"}}, cfg, j, e));
  EXPECT_EQ(e.status, 422);
  // A reply without code is a job answered without running anything; the same reply is the same key.
  ASSERT_TRUE(kgen::serve::parse_job({{"label", "activation/relu"}, {"kernel_code", "no code here"}}, cfg, j, e));
  EXPECT_TRUE(j.no_code);
  kgen::serve::Job j2;
  ASSERT_TRUE(kgen::serve::parse_job({{"task_id", "activation/relu"}, {"kernel_code", "no code here"}}, cfg, j2, e));
  EXPECT_EQ(j.key, j2.key);
  ASSERT_TRUE(kgen::serve::parse_job({{"task_id", "activation/relu"}, {"kernel_code", "no code"}, {"num_correct_trials", 3}},
                                     cfg, j2, e));
  EXPECT_NE(j.key, j2.key);
  std::filesystem::remove_all(dir);
}

TEST(ServePool, NoCodeIsAnsweredAtOnceAndAFullQueueRefusesTheBatch) {
  auto dir = std::filesystem::temp_directory_path() / ("kgen-serve-pool-" + std::to_string(::getpid()));
  auto cfg = config(dir.string());
  kgen::serve::Job none, real;
  kgen::serve::BadRequest e;
  ASSERT_TRUE(kgen::serve::parse_job({{"task_id", "activation/relu"}, {"kernel_code", "nothing"}}, cfg, none, e));
  ASSERT_TRUE(kgen::serve::parse_job({{"task_id", "activation/relu"},
                                      {"kernel_code", "<file path=\"op_kernel/relu_custom.cpp\">int k;</file>\n"
                                                      "<file path=\"op_host/relu_custom.cpp\">int h;</file>"}},
                                     cfg, real, e));
  kgen::serve::Pool pool(1, 0, nullptr);   // a queue of 0: nothing that needs a worker fits
  auto a = pool.submit({none});
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ((*a)[0].get().result.verdict, Verdict::NoCode);
  ASSERT_FALSE(real.no_code) << real.no_code_reason;
  EXPECT_FALSE(pool.submit({none, real}).has_value());
  EXPECT_EQ(pool.queued(), 0u);
  std::filesystem::remove_all(dir);
}
}  // namespace
