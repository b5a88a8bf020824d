// The SQLite results store (src/eval/store.*) and the JSON form of EvalResult (src/eval/result_json.h).
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <tuple>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "eval/result_json.h"
#include "eval/store.h"

using namespace kgen::eval;
namespace fs = std::filesystem;

namespace {

std::string temp_dir() {
  std::string tmpl = (fs::temp_directory_path() / "kgen_store_XXXXXX").string();
  char* d = mkdtemp(tmpl.data());
  EXPECT_NE(d, nullptr);
  return tmpl;
}

struct TempDir {
  std::string path = temp_dir();
  ~TempDir() { std::error_code ec; fs::remove_all(path, ec); }
  std::string file(const std::string& n) const { return path + "/" + n; }
};

EvalResult make_result(int i) {
  EvalResult r;
  r.task_id = "activation/relu_" + std::to_string(i);
  r.category = i % 2 ? "activation" : "reduce";
  r.level = 1 + i % 3;
  r.candidate = "/cands/relu_" + std::to_string(i);
  r.candidate_kind = "op-project";
  r.task_hash = "th" + std::to_string(i);
  r.candidate_hash = "ch" + std::to_string(i * 7);
  r.kgen_version = "0.1.0";
  r.soc = "Ascend910B2";
  r.sample = i % 4;
  r.verdict = i % 2 ? Verdict::Correct : Verdict::RuntimeError;
  r.error_category = i % 2 ? "" : "ub-overflow";
  r.diagnostics = {"line one \"quoted\"", "line two\nwith newline", "unicode \xC3\xA9"};
  CaseResult c1;
  c1.name = "default";
  c1.correct = true;
  c1.max_abs_err = 1.0 / 3 + i;
  c1.max_rel_err = 2.0 / 7;
  c1.modeled_us = 12.345678901234567;
  c1.eager_modeled_us = 0.1 + 0.2;
  c1.gm_bytes = 512000 + i;
  c1.flops = 64000.5;
  c1.bound = "HBM";
  CaseResult c2;
  c2.name = "dtype=float16,dim=777";
  c2.correct = false;
  c2.max_abs_err = std::numeric_limits<double>::infinity();
  c2.max_rel_err = std::numeric_limits<double>::quiet_NaN();
  c2.first_mismatch = "output 0 index [3, 17]: got 1.5, want 1.25";
  c2.modeled_us = 1e-300;
  c2.eager_modeled_us = 1e300;
  r.cases = {c1, c2};
  r.trials = 5 + i;
  r.max_abs_err = 1e-5 * (i + 1);
  r.max_rel_err = -std::numeric_limits<double>::infinity();
  r.modeled_us = 3.25 * (i + 1);
  r.eager_modeled_us = 7.5 * (i + 1);
  r.check_speedup = r.eager_modeled_us / r.modeled_us;
  r.launch_us = 2.5 * (i + 1);
  r.eager_launch_us = 6.0 * (i + 1);
  if (i % 2) {   // a perf shape timed at the benchmark's size
    r.perf.shape = "batch_size=4096,dim=393216";
    r.perf.inputs = "float32[4096,393216]";
    r.perf.modeled_us = 8945.8 + i;
    r.perf.eager_modeled_us = 8953.85;
    r.perf.launch_us = 2.5;
    r.perf.eager_launch_us = 6.0;
    r.perf.speedup = r.perf.eager_modeled_us / r.perf.modeled_us;
    r.perf.body_speedup = 0.9997;
    r.perf.bound = "HBM";
    r.perf.gm_bytes = 12884901888.0;
    r.perf.records = 4325376ull + i;
    r.perf.seconds = 2.6;
    r.perf.peak_rss_mb = 469.1;
    r.perf.note = i == 3 ? "approximate: ..." : "";
  } else if (i == 2) {
    r.perf.shape = "n=65536";
    r.perf.skipped = "the forward does not run on FakeTensors at the perf shape";
  }
  r.speedup = r.perf.timed() ? r.perf.speedup : r.check_speedup;
  r.seconds = 0.125 * i;
  r.reference_s = 0.5 + i;
  r.build_s = 1.25;
  r.run_s = 0.375;
  r.timeline.kernel = "relu_custom";
  r.timeline.case_name = "default";
  r.timeline.bound = "launch";
  r.timeline.body_us = 0.35 + i;
  r.timeline.cores = 48;
  r.timeline.lanes = {{"AIV 0.0", "MTE2", 0.17, {0.005, 0.1, 0.2, 0.3}}, {"AIV 1.0 (critical)", "V", 0.05, {}}};
  return r;
}

void expect_same_double(double a, double b, const char* what) {
  if (std::isnan(a)) EXPECT_TRUE(std::isnan(b)) << what;
  else EXPECT_EQ(a, b) << what;   // exact: the JSON keeps 17 significant digits
}

void expect_same(const EvalResult& a, const EvalResult& b) {
  EXPECT_EQ(a.task_id, b.task_id);
  EXPECT_EQ(a.category, b.category);
  EXPECT_EQ(a.level, b.level);
  EXPECT_EQ(a.candidate, b.candidate);
  EXPECT_EQ(a.candidate_kind, b.candidate_kind);
  EXPECT_EQ(a.task_hash, b.task_hash);
  EXPECT_EQ(a.candidate_hash, b.candidate_hash);
  EXPECT_EQ(a.kgen_version, b.kgen_version);
  EXPECT_EQ(a.soc, b.soc);
  EXPECT_EQ(a.sample, b.sample);
  EXPECT_EQ(a.verdict, b.verdict);
  EXPECT_EQ(a.error_category, b.error_category);
  EXPECT_EQ(a.diagnostics, b.diagnostics);
  ASSERT_EQ(a.cases.size(), b.cases.size());
  for (size_t i = 0; i < a.cases.size(); ++i) {
    EXPECT_EQ(a.cases[i].name, b.cases[i].name);
    EXPECT_EQ(a.cases[i].correct, b.cases[i].correct);
    expect_same_double(a.cases[i].max_abs_err, b.cases[i].max_abs_err, "case max_abs_err");
    expect_same_double(a.cases[i].max_rel_err, b.cases[i].max_rel_err, "case max_rel_err");
    EXPECT_EQ(a.cases[i].first_mismatch, b.cases[i].first_mismatch);
    expect_same_double(a.cases[i].modeled_us, b.cases[i].modeled_us, "case modeled_us");
    expect_same_double(a.cases[i].eager_modeled_us, b.cases[i].eager_modeled_us, "case eager_modeled_us");
    expect_same_double(a.cases[i].gm_bytes, b.cases[i].gm_bytes, "case gm_bytes");
    expect_same_double(a.cases[i].flops, b.cases[i].flops, "case flops");
    EXPECT_EQ(a.cases[i].bound, b.cases[i].bound);
  }
  EXPECT_EQ(a.trials, b.trials);
  expect_same_double(a.max_abs_err, b.max_abs_err, "max_abs_err");
  expect_same_double(a.max_rel_err, b.max_rel_err, "max_rel_err");
  expect_same_double(a.modeled_us, b.modeled_us, "modeled_us");
  expect_same_double(a.eager_modeled_us, b.eager_modeled_us, "eager_modeled_us");
  expect_same_double(a.speedup, b.speedup, "speedup");
  expect_same_double(a.check_speedup, b.check_speedup, "check_speedup");
  expect_same_double(a.launch_us, b.launch_us, "launch_us");
  expect_same_double(a.eager_launch_us, b.eager_launch_us, "eager_launch_us");
  EXPECT_EQ(a.perf.shape, b.perf.shape);
  EXPECT_EQ(a.perf.inputs, b.perf.inputs);
  EXPECT_EQ(a.perf.skipped, b.perf.skipped);
  EXPECT_EQ(a.perf.timed(), b.perf.timed());
  for (auto [x, y, what] : {std::tuple{a.perf.modeled_us, b.perf.modeled_us, "perf modeled_us"},
                            {a.perf.eager_modeled_us, b.perf.eager_modeled_us, "perf eager_modeled_us"},
                            {a.perf.launch_us, b.perf.launch_us, "perf launch_us"},
                            {a.perf.eager_launch_us, b.perf.eager_launch_us, "perf eager_launch_us"},
                            {a.perf.speedup, b.perf.speedup, "perf speedup"},
                            {a.perf.body_speedup, b.perf.body_speedup, "perf body_speedup"},
                            {a.perf.gm_bytes, b.perf.gm_bytes, "perf gm_bytes"},
                            {a.perf.seconds, b.perf.seconds, "perf seconds"},
                            {a.perf.peak_rss_mb, b.perf.peak_rss_mb, "perf peak_rss_mb"}})
    expect_same_double(x, y, what);
  EXPECT_EQ(a.perf.bound, b.perf.bound);
  EXPECT_EQ(a.perf.records, b.perf.records);
  EXPECT_EQ(a.perf.note, b.perf.note);
  expect_same_double(a.seconds, b.seconds, "seconds");
  expect_same_double(a.reference_s, b.reference_s, "reference_s");
  expect_same_double(a.build_s, b.build_s, "build_s");
  expect_same_double(a.run_s, b.run_s, "run_s");
  EXPECT_EQ(a.timeline.kernel, b.timeline.kernel);
  EXPECT_EQ(a.timeline.case_name, b.timeline.case_name);
  EXPECT_EQ(a.timeline.bound, b.timeline.bound);
  expect_same_double(a.timeline.body_us, b.timeline.body_us, "timeline body_us");
  EXPECT_EQ(a.timeline.cores, b.timeline.cores);
  ASSERT_EQ(a.timeline.lanes.size(), b.timeline.lanes.size());
  for (size_t i = 0; i < a.timeline.lanes.size(); ++i) {
    EXPECT_EQ(a.timeline.lanes[i].core, b.timeline.lanes[i].core);
    EXPECT_EQ(a.timeline.lanes[i].pipe, b.timeline.lanes[i].pipe);
    EXPECT_EQ(a.timeline.lanes[i].busy_us, b.timeline.lanes[i].busy_us);
    EXPECT_EQ(a.timeline.lanes[i].spans, b.timeline.lanes[i].spans);
  }
}

std::optional<EvalResult> find_of(Store& s, const EvalResult& r) {
  return s.find(r.task_hash, r.candidate_hash, r.kgen_version, r.soc, r.sample);
}

}  // namespace

TEST(EvalStoreJson, VerdictNamesRoundTrip) {
  for (Verdict v : {Verdict::CompileError, Verdict::RuntimeError, Verdict::Timeout, Verdict::WrongAnswer,
                    Verdict::Cheating, Verdict::Correct}) {
    Verdict back = Verdict::Correct;
    ASSERT_TRUE(parse_verdict(verdict_name(v), back)) << verdict_name(v);
    EXPECT_EQ(back, v);
  }
  EXPECT_STREQ(verdict_name(Verdict::WrongAnswer), "wrong-answer");
  Verdict v;
  EXPECT_FALSE(parse_verdict("passed", v));
}

TEST(EvalStoreJson, RoundTripAndErrors) {
  EvalResult r = make_result(3);
  nlohmann::json j = to_json(r);
  EXPECT_EQ(j["verdict"], "correct");
  EXPECT_EQ(j["max_rel_err"], "-inf");
  EvalResult back;
  std::string err;
  ASSERT_TRUE(from_json(nlohmann::json::parse(j.dump()), back, err)) << err;
  expect_same(r, back);

  nlohmann::json bad = j;
  bad["level"] = "one";
  EXPECT_FALSE(from_json(bad, back, err));
  EXPECT_NE(err.find("'level'"), std::string::npos) << err;
  bad = j;
  bad["verdict"] = "passed";
  EXPECT_FALSE(from_json(bad, back, err));
  EXPECT_NE(err.find("passed"), std::string::npos) << err;
  bad = j;
  bad.erase("verdict");
  EXPECT_FALSE(from_json(bad, back, err));
  EXPECT_NE(err.find("verdict"), std::string::npos) << err;
  bad = j;
  bad["cases"][1]["max_abs_err"] = true;
  EXPECT_FALSE(from_json(bad, back, err));
  EXPECT_NE(err.find("cases[1]"), std::string::npos) << err;
  bad = j;
  bad["perf"]["records"] = -1;
  EXPECT_FALSE(from_json(bad, back, err));
  EXPECT_NE(err.find("perf: field 'records'"), std::string::npos) << err;
  EXPECT_EQ(j["speedup_shape"], "perf");   // make_result(3) was timed at its perf shape
  EXPECT_EQ(j["perf"]["launch_share"], 2.5 / (8945.8 + 3));
  bad = j;
  bad["timeline"]["lanes"][0]["spans"][1] = "x";
  EXPECT_FALSE(from_json(bad, back, err));
  EXPECT_NE(err.find("timeline: lanes[0]: field 'spans[1]'"), std::string::npos) << err;
}

TEST(EvalStore, RoundTripEveryField) {
  TempDir d;
  std::string err;
  auto s = Store::open(d.file("r.db"), err);
  ASSERT_TRUE(s) << err;
  EXPECT_EQ(s->integrity_check(), "ok");
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(s->put(make_result(i), err)) << err;
  for (int i = 0; i < 4; ++i) {
    auto got = find_of(*s, make_result(i));
    ASSERT_TRUE(got) << i;
    expect_same(make_result(i), *got);
  }
  EXPECT_EQ(s->count(), 4);
  // Reopened from the file: the same.
  s.reset();
  s = Store::open(d.file("r.db"), err);
  ASSERT_TRUE(s) << err;
  auto all = s->all(&err);
  ASSERT_EQ(all.size(), 4u) << err;
  for (const EvalResult& r : all) {
    int i = std::stoi(r.task_id.substr(r.task_id.rfind('_') + 1));
    expect_same(make_result(i), r);
  }
  std::string ts = s->created_at("th0", "ch0", "0.1.0", "Ascend910B2", 0);
  EXPECT_EQ(ts.size(), 24u) << ts;   // 2025-01-31T12:34:56.789Z
  EXPECT_EQ(ts.back(), 'Z');
}

TEST(EvalStore, UpsertReplaces) {
  TempDir d;
  std::string err;
  auto s = Store::open(d.file("r.db"), err);
  ASSERT_TRUE(s) << err;
  EvalResult r = make_result(1);
  ASSERT_TRUE(s->put(r, err)) << err;
  r.verdict = Verdict::WrongAnswer;
  r.speedup = 0;
  r.diagnostics = {"output 0 index [7]: got 1, want 2"};
  r.candidate = "/elsewhere";
  ASSERT_TRUE(s->put(r, err)) << err;
  EXPECT_EQ(s->count(), 1);
  auto got = find_of(*s, r);
  ASSERT_TRUE(got);
  expect_same(r, *got);
  // The indexed columns follow the upsert too.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(d.file("r.db").c_str(), &db), SQLITE_OK);
  sqlite3_stmt* q = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT verdict, speedup, candidate FROM results", -1, &q, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(q), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(q, 0)), "wrong-answer");
  EXPECT_EQ(sqlite3_column_double(q, 1), 0.0);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(q, 2)), "/elsewhere");
  sqlite3_finalize(q);
  sqlite3_close(db);
}

TEST(EvalStore, FindMissesOnOtherKeyParts) {
  TempDir d;
  std::string err;
  auto s = Store::open(d.file("r.db"), err);
  ASSERT_TRUE(s) << err;
  EvalResult r = make_result(2);
  ASSERT_TRUE(s->put(r, err)) << err;
  EXPECT_TRUE(s->find(r.task_hash, r.candidate_hash, r.kgen_version, r.soc, r.sample));
  EXPECT_FALSE(s->find(r.task_hash, r.candidate_hash, "0.2.0", r.soc, r.sample));
  EXPECT_FALSE(s->find(r.task_hash, r.candidate_hash, r.kgen_version, "Ascend310P3", r.sample));
  EXPECT_FALSE(s->find(r.task_hash, "other", r.kgen_version, r.soc, r.sample));
  EXPECT_FALSE(s->find("other", r.candidate_hash, r.kgen_version, r.soc, r.sample));
  EXPECT_FALSE(s->find(r.task_hash, r.candidate_hash, r.kgen_version, r.soc, r.sample + 1));
  // A result under another SoC is a separate row.
  EvalResult r2 = r;
  r2.soc = "Ascend310P3";
  r2.speedup = 9;
  ASSERT_TRUE(s->put(r2, err)) << err;
  EXPECT_EQ(s->count(), 2);
  EXPECT_EQ(find_of(*s, r)->speedup, r.speedup);
  EXPECT_EQ(find_of(*s, r2)->speedup, 9);
}

TEST(EvalStore, ForTask) {
  TempDir d;
  std::string err;
  auto s = Store::open(d.file("r.db"), err);
  ASSERT_TRUE(s) << err;
  for (int sample = 3; sample >= 0; --sample) {
    EvalResult r = make_result(5);
    r.sample = sample;
    ASSERT_TRUE(s->put(r, err)) << err;
  }
  ASSERT_TRUE(s->put(make_result(6), err)) << err;
  auto rs = s->for_task(make_result(5).task_id, &err);
  ASSERT_EQ(rs.size(), 4u) << err;
  for (int i = 0; i < 4; ++i) EXPECT_EQ(rs[i].sample, i);
  EXPECT_TRUE(s->for_task("nope/none").empty());
  EXPECT_EQ(s->all().size(), 5u);
}

TEST(EvalStore, Trajectories) {
  TempDir d;
  std::string err;
  auto s = Store::open(d.file("r.db"), err);
  ASSERT_TRUE(s) << err;
  struct T { int sample, round; const char* kind; const char* text; };
  const T in[] = {{1, 0, "prompt", "write relu"}, {0, 1, "prompt", "fix it"}, {0, 0, "prompt", "write relu"},
                  {0, 0, "response", "__global__ ..."}, {0, 0, "verdict", "compile-error: no member"},
                  {1, 0, "response", "other\ncode"}};
  for (const T& t : in) ASSERT_GT(s->add_trajectory("act/relu", "c1", t.sample, t.round, t.kind, t.text, err), 0) << err;
  ASSERT_GT(s->add_trajectory("act/gelu", "c2", 0, 0, "prompt", "x", err), 0);
  EXPECT_EQ(s->add_trajectory("act/relu", "c1", 0, 0, "thought", "x", err), -1);
  EXPECT_NE(err.find("thought"), std::string::npos) << err;
  auto ts = s->trajectories_for("act/relu", &err);
  ASSERT_EQ(ts.size(), 6u) << err;
  // Expected order (sample, round, insertion): computed from the input.
  std::vector<size_t> order{0, 1, 2, 3, 4, 5};
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::pair(in[a].sample, in[a].round) < std::pair(in[b].sample, in[b].round);
  });
  for (size_t i = 0; i < ts.size(); ++i) {
    const T& t = in[order[i]];
    EXPECT_EQ(ts[i].sample, t.sample);
    EXPECT_EQ(ts[i].round, t.round);
    EXPECT_EQ(ts[i].kind, t.kind);
    EXPECT_EQ(ts[i].text, t.text);
    EXPECT_EQ(ts[i].task_id, "act/relu");
    EXPECT_EQ(ts[i].candidate_hash, "c1");
    EXPECT_FALSE(ts[i].created_at.empty());
    if (i > 0 && std::pair(ts[i].sample, ts[i].round) == std::pair(ts[i - 1].sample, ts[i - 1].round))
      EXPECT_GT(ts[i].id, ts[i - 1].id);
  }
  EXPECT_EQ(s->trajectories_for("act/gelu").size(), 1u);
}

TEST(EvalStore, TwoStoresOnOneFile) {
  TempDir d;
  std::string err;
  auto a = Store::open(d.file("r.db"), err);
  ASSERT_TRUE(a) << err;
  auto b = Store::open(d.file("r.db"), err);
  ASSERT_TRUE(b) << err;
  ASSERT_TRUE(a->put(make_result(1), err)) << err;
  auto got = find_of(*b, make_result(1));
  ASSERT_TRUE(got);
  expect_same(make_result(1), *got);
  ASSERT_TRUE(b->put(make_result(2), err)) << err;
  EXPECT_EQ(a->all().size(), 2u);
  // Concurrent writers (threads with one Store each) all get through thanks to busy_timeout.
  std::vector<std::thread> th;
  std::atomic<int> failures{0};
  for (int w = 0; w < 2; ++w)
    th.emplace_back([&, w] {
      std::string e;
      auto s = Store::open(d.file("r.db"), e);
      if (!s) { ++failures; return; }
      for (int i = 0; i < 25; ++i)
        if (!s->put(make_result(100 + w * 25 + i), e)) ++failures;
    });
  for (auto& t : th) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(a->count(), 52);
}

TEST(EvalStore, CorruptOrUnwritableFileIsAnError) {
  TempDir d;
  std::string err;
  // Not a database at all.
  {
    std::ofstream f(d.file("junk.db"), std::ios::binary);
    for (int i = 0; i < 8192; ++i) f.put(char(i * 31 + 7));
  }
  EXPECT_FALSE(Store::open(d.file("junk.db"), err));
  EXPECT_NE(err.find(d.file("junk.db")), std::string::npos) << err;
  EXPECT_NE(err.find("not a database"), std::string::npos) << err;
  // Folder does not exist.
  err.clear();
  EXPECT_FALSE(Store::open(d.file("no/such/dir/r.db"), err));
  EXPECT_NE(err.find(d.file("no/such/dir/r.db")), std::string::npos) << err;
  EXPECT_NE(err.find("unable to open"), std::string::npos) << err;
  // A database whose pages after the first are overwritten: no crash, and an error from open, the reads or
  // integrity_check.
  {
    std::string e;
    auto s = Store::open(d.file("dam.db"), e);
    ASSERT_TRUE(s) << e;
    for (int i = 0; i < 60; ++i) ASSERT_TRUE(s->put(make_result(i), e)) << e;
  }
  auto size = fs::file_size(d.file("dam.db"));
  ASSERT_GT(size, 8192u);
  {
    std::fstream f(d.file("dam.db"), std::ios::binary | std::ios::in | std::ios::out);
    f.seekp(4096);
    for (uintmax_t i = 4096; i < size; ++i) f.put(char(0xA5));
  }
  err.clear();
  auto s = Store::open(d.file("dam.db"), err);
  if (!s) {
    EXPECT_NE(err.find(d.file("dam.db")), std::string::npos) << err;
  } else {
    std::string rerr;
    auto all = s->all(&rerr);
    std::string ic = s->integrity_check();
    EXPECT_TRUE(!rerr.empty() || ic != "ok") << "damage went unnoticed";
    if (!rerr.empty()) EXPECT_NE(rerr.find(d.file("dam.db")), std::string::npos) << rerr;
  }
}

TEST(EvalStore, ReadOnlyFileIsAnError) {
  if (geteuid() == 0) GTEST_SKIP() << "root ignores file permissions";
  TempDir d;
  std::string err;
  { ASSERT_TRUE(Store::open(d.file("r.db"), err)) << err; }
  chmod(d.file("r.db").c_str(), 0444);
  EXPECT_FALSE(Store::open(d.file("r.db"), err));
  EXPECT_NE(err.find(d.file("r.db")), std::string::npos) << err;
}

TEST(EvalStore, NewerSchemaIsAnError) {
  TempDir d;
  std::string err;
  { ASSERT_TRUE(Store::open(d.file("r.db"), err)) << err; }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(d.file("r.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "UPDATE schema_version SET version = 99", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  EXPECT_FALSE(Store::open(d.file("r.db"), err));
  EXPECT_NE(err.find("99"), std::string::npos) << err;
  EXPECT_NE(err.find("newer"), std::string::npos) << err;
}

// kill -9 in the middle of a stream of puts: the file stays consistent and every put that returned (and was
// reported through the pipe) is there.
TEST(EvalStore, DurableAcrossKill9) {
  TempDir d;
  const std::string path = d.file("r.db");
  { std::string e; ASSERT_TRUE(Store::open(path, e)) << e; }
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(fds[0]);
    std::string e;
    auto s = Store::open(path, e);
    if (!s) _exit(3);
    for (int i = 0;; ++i) {
      EvalResult r = make_result(i);
      r.task_hash = "kill" + std::to_string(i);
      if (!s->put(r, e)) _exit(4);
      if (write(fds[1], &i, sizeof i) != sizeof i) _exit(5);
    }
  }
  close(fds[1]);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "child exited early with status " << WEXITSTATUS(status);
  std::vector<int> committed;
  int i;
  while (read(fds[0], &i, sizeof i) == sizeof i) committed.push_back(i);
  close(fds[0]);
  ASSERT_FALSE(committed.empty()) << "the child committed nothing in 100 ms";
  std::string err;
  auto s = Store::open(path, err);
  ASSERT_TRUE(s) << err;
  EXPECT_EQ(s->integrity_check(), "ok");
  for (int c : committed) {
    EvalResult r = make_result(c);
    r.task_hash = "kill" + std::to_string(c);
    auto got = find_of(*s, r);
    ASSERT_TRUE(got) << "committed row " << c << " lost";
    expect_same(r, *got);
  }
  EXPECT_GE(s->count(), std::int64_t(committed.size()));
  EXPECT_LE(s->count(), std::int64_t(committed.size()) + 1);   // at most the one in flight beyond the reported
}
