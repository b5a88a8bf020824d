// Both results-store backends through the one Store interface (eval/store.h): results, trajectories, claims, the
// reply cache. SQLite always; PostgreSQL when KGEN_TEST_PG_URL names a server (tests/scale_out_test.sh starts one
// with scripts/pg_local.sh and runs these with it), else those cases are skipped.
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <stdlib.h>

#include <atomic>
#include <cmath>
#include <chrono>
#include <filesystem>
#include <set>
#include <thread>

#include "eval/claims.h"
#include "eval/store.h"

using namespace kgen::eval;
namespace fs = std::filesystem;

namespace {

// A fresh store of the backend: a new SQLite file, or the PostgreSQL database with kgen's tables dropped first.
class StoreBackends : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "sqlite") {
      std::string tmpl = (fs::temp_directory_path() / "kgen_backends_XXXXXX").string();
      ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
      dir_ = tmpl;
      where_ = dir_ + "/results.db";
      return;
    }
    const char* url = std::getenv("KGEN_TEST_PG_URL");
    if (!url || !*url) GTEST_SKIP() << "no PostgreSQL server (KGEN_TEST_PG_URL unset; tests/scale_out_test.sh sets it)";
    where_ = url;
    PGconn* c = PQconnectdb(url);
    ASSERT_EQ(PQstatus(c), CONNECTION_OK) << PQerrorMessage(c);
    PQclear(PQexec(c, "SET client_min_messages TO warning; DROP TABLE IF EXISTS results, trajectories, claims, "
                      "replies, schema_version"));
    PQfinish(c);
  }
  void TearDown() override {
    if (!dir_.empty()) {
      std::error_code ec;
      fs::remove_all(dir_, ec);
    }
  }
  std::unique_ptr<Store> open() {
    std::string err;
    auto s = Store::open(where_, err);
    EXPECT_TRUE(s) << err;
    return s;
  }
  std::string where_, dir_;
};

EvalResult result(int i, Verdict v = Verdict::Correct) {
  EvalResult r;
  r.task_id = "activation/t" + std::to_string(i);
  r.category = "activation";
  r.candidate = "/c/" + std::to_string(i);
  r.candidate_kind = "tile";
  r.task_hash = "th" + std::to_string(i);
  r.candidate_hash = "ch" + std::to_string(i);
  r.kgen_version = "0.1.0";
  r.soc = "Ascend910B2";
  r.verdict = v;
  r.speedup = 1.5 + i;
  r.modeled_us = 10.25 * (i + 1);
  r.eager_modeled_us = std::nan("");
  r.diagnostics = {"a \"quoted\" line", "unicode \xC3\xA9", std::string("nul\0byte", 8)};
  return r;
}

StoreKey key_of(const EvalResult& r) { return {r.task_hash, r.candidate_hash, r.kgen_version, r.soc, r.sample}; }

TEST_P(StoreBackends, ResultsRoundTripAndUpsert) {
  auto s = open();
  ASSERT_TRUE(s);
  EXPECT_STREQ(s->backend(), GetParam() == "sqlite" ? "sqlite" : "postgresql");
  std::string err;
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(s->put(result(i), err)) << err;
  EXPECT_EQ(s->count(), 3);
  auto got = s->find("th1", "ch1", "0.1.0", "Ascend910B2", 0, &err);
  ASSERT_TRUE(got) << err;
  EXPECT_EQ(got->task_id, "activation/t1");
  EXPECT_DOUBLE_EQ(got->modeled_us, 20.5);
  EXPECT_TRUE(std::isnan(got->eager_modeled_us));
  EXPECT_EQ(got->diagnostics, result(1).diagnostics);
  EXPECT_FALSE(s->find("th1", "ch1", "0.1.0", "Ascend310P3", 0));
  EXPECT_FALSE(s->find("th1", "ch1", "0.1.0", "Ascend910B2", 1));
  EvalResult changed = result(1, Verdict::WrongAnswer);
  ASSERT_TRUE(s->put(changed, err)) << err;
  EXPECT_EQ(s->count(), 3);
  EXPECT_EQ(s->find("th1", "ch1", "0.1.0", "Ascend910B2", 0)->verdict, Verdict::WrongAnswer);
  EXPECT_EQ(s->for_task("activation/t2").size(), 1u);
  const std::vector<EvalResult> all = s->all(&err);
  ASSERT_EQ(all.size(), 3u) << err;
  EXPECT_EQ(all[0].task_id, "activation/t0");
  const std::string at = s->created_at("th0", "ch0", "0.1.0", "Ascend910B2", 0);
  ASSERT_EQ(at.size(), 24u) << at;   // 2025-01-31T12:34:56.789Z
  EXPECT_EQ(at[10], 'T');
  EXPECT_EQ(at.back(), 'Z');
  EXPECT_EQ(s->integrity_check(), "ok");
}

TEST_P(StoreBackends, Trajectories) {
  auto s = open();
  ASSERT_TRUE(s);
  std::string err;
  const auto a = s->add_trajectory("m/x", "h", 0, 0, "prompt", "p0", err);
  const auto b = s->add_trajectory("m/x", "h", 0, 0, "response", "r0", err);
  const auto c = s->add_trajectory("m/x", "h", 0, 1, "verdict", "{\"verdict\": \"correct\"}", err);
  ASSERT_GT(a, 0) << err;
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
  EXPECT_EQ(s->add_trajectory("m/x", "h", 0, 0, "thought", "x", err), -1);
  EXPECT_NE(err.find("thought"), std::string::npos) << err;
  auto ts = s->trajectories_for("m/x");
  ASSERT_EQ(ts.size(), 3u);
  EXPECT_EQ(ts[1].kind, "response");
  EXPECT_EQ(ts[2].round, 1);
}

TEST_P(StoreBackends, ClaimsOneOwnerAtATime) {
  auto s = open();
  ASSERT_TRUE(s);
  std::string err;
  const EvalResult r = result(7);
  const StoreKey k = key_of(r);
  EXPECT_EQ(s->claim(k, "A", 60, err), Claim::Mine) << err;
  EXPECT_EQ(s->claim(k, "B", 60, err), Claim::Taken) << err;
  EXPECT_EQ(s->claim(k, "A", 60, err), Claim::Mine);   // the holder may claim again
  s->release(k, "B");                                   // not B's: nothing happens
  EXPECT_EQ(s->claim(k, "B", 60, err), Claim::Taken);
  s->release(k, "A");
  EXPECT_EQ(s->claim(k, "B", 60, err), Claim::Mine);
  ASSERT_TRUE(s->put(r, err)) << err;                  // the result releases B's claim
  EXPECT_EQ(s->claim(k, "A", 60, err), Claim::Done);
  EXPECT_EQ(s->claim(k, "B", 60, err), Claim::Done);
  EXPECT_TRUE(err.empty()) << err;
}

TEST_P(StoreBackends, ClaimsExpireUnlessRenewed) {
  auto s = open();
  ASSERT_TRUE(s);
  std::string err;
  const StoreKey k1 = key_of(result(1)), k2 = key_of(result(2));
  EXPECT_EQ(s->claim(k1, "A", 0.3, err), Claim::Mine);
  EXPECT_EQ(s->claim(k2, "A", 0.3, err), Claim::Mine);
  ASSERT_TRUE(s->renew_claims("A", 60, err)) << err;
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(s->claim(k1, "B", 60, err), Claim::Taken);   // renewed: still A's
  EXPECT_EQ(s->claim(k2, "B", 60, err), Claim::Taken);
  EXPECT_EQ(s->claim(k1, "A", 0.2, err), Claim::Mine);   // A's lease now 0.2 s on k1
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  EXPECT_EQ(s->claim(k1, "B", 60, err), Claim::Mine);    // a dead owner's claim is taken over
  EXPECT_EQ(s->claim(k2, "B", 60, err), Claim::Taken);
}

TEST_P(StoreBackends, ClaimKeeperRenewsWhileAlive) {
  auto s = open();
  ASSERT_TRUE(s);
  std::string err;
  const StoreKey k = key_of(result(3));
  {
    ClaimKeeper keeper(s.get(), "K");
    EXPECT_EQ(s->claim(k, "K", 60, err), Claim::Mine);
    EXPECT_EQ(s->claim(k, "other", 60, err), Claim::Taken);
  }
  EXPECT_NE(claim_owner(), claim_owner());   // unique per call: host, pid and a random part
  EXPECT_NE(claim_owner().find(':'), std::string::npos);
}

// Two Store objects (two connections, as two hosts have) claiming the same 40 keys at once: one Mine per key.
TEST_P(StoreBackends, ConcurrentClaimsGiveEachKeyToOneOwner) {
  auto s1 = open(), s2 = open();
  ASSERT_TRUE(s1 && s2);
  std::atomic<int> mine{0};
  std::set<int> won[2];
  auto claimer = [&](Store* s, int who) {
    std::string err;
    for (int i = 0; i < 40; ++i)
      if (s->claim(key_of(result(100 + i)), who ? "B" : "A", 60, err) == Claim::Mine) {
        ++mine;
        won[who].insert(i);
      }
  };
  std::thread a(claimer, s1.get(), 0), b(claimer, s2.get(), 1);
  a.join();
  b.join();
  EXPECT_EQ(mine.load(), 40);
  for (int i : won[0]) EXPECT_EQ(won[1].count(i), 0u) << i;
}

TEST_P(StoreBackends, ReplyCacheKeepsTheFirstText) {
  auto s = open();
  ASSERT_TRUE(s);
  std::string err;
  EXPECT_FALSE(s->get_reply("k1", &err));
  EXPECT_TRUE(err.empty()) << err;
  ASSERT_TRUE(s->put_reply("k1", "{\"reply\": 1}", err)) << err;
  ASSERT_TRUE(s->put_reply("k1", "{\"reply\": 2}", err)) << err;
  EXPECT_EQ(s->get_reply("k1").value_or(""), "{\"reply\": 1}");
}

TEST_P(StoreBackends, ReopeningKeepsEverything) {
  std::string err;
  {
    auto s = open();
    ASSERT_TRUE(s);
    ASSERT_TRUE(s->put(result(5), err)) << err;
  }
  auto s = open();
  ASSERT_TRUE(s);
  EXPECT_EQ(s->count(), 1);
}

INSTANTIATE_TEST_SUITE_P(Both, StoreBackends, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });

TEST(StoreUrls, PasswordsAreNeverPrinted) {
  EXPECT_TRUE(Store::is_url("postgresql://u@h/db"));
  EXPECT_TRUE(Store::is_url("postgres://h/db"));
  EXPECT_FALSE(Store::is_url("out/results.db"));
  EXPECT_EQ(Store::printable("postgresql://kgen:s3cret@db.lab:5432/kgen"), "postgresql://kgen:***@db.lab:5432/kgen");
  EXPECT_EQ(Store::printable("postgresql://kgen:p@ss@db/kgen"), "postgresql://kgen:***@db/kgen");
  EXPECT_EQ(Store::printable("postgresql://kgen@db/kgen"), "postgresql://kgen@db/kgen");
  EXPECT_EQ(Store::printable("postgresql://db:5432/kgen"), "postgresql://db:5432/kgen");
  EXPECT_EQ(Store::printable("a/b.db"), "a/b.db");
}

TEST(StoreUrls, UnreachableServerIsAPreciseError) {
  std::string err;
  // Port 1 on loopback: nothing listens there.
  auto s = Store::open("postgresql://kgen:hunter2@127.0.0.1:1/kgen?connect_timeout=2", err);
  EXPECT_FALSE(s);
  EXPECT_NE(err.find("cannot connect"), std::string::npos) << err;
  EXPECT_NE(err.find("postgresql://kgen:***@127.0.0.1:1/kgen"), std::string::npos) << err;
  EXPECT_EQ(err.find("hunter2"), std::string::npos) << err;
  EXPECT_FALSE(Store::open("", err));
}

}  // namespace
