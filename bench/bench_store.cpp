// The results store's cost per result: put() (one committed transaction, claim released) and find() of a stored row,
// SQLite (a file under /tmp) and PostgreSQL (KGEN_BENCH_PG_URL; bench/scale_out.sh starts a local server). A result is
// a realistic row: 3 cases, 8 diagnostics, a ~6 KB JSON document.
#include <benchmark/benchmark.h>
#include <libpq-fe.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

#include "eval/store.h"

using namespace kgen::eval;

namespace {
EvalResult row(long i) {
  EvalResult r;
  r.task_id = "activation/t" + std::to_string(i % 100);
  r.category = "activation";
  r.candidate = "/c/" + std::to_string(i);
  r.candidate_kind = "op-project";
  r.task_hash = std::string(64, 'a') + std::to_string(i);
  r.candidate_hash = std::string(64, 'b') + std::to_string(i);
  r.kgen_version = "bench";
  r.soc = "Ascend910B2";
  r.verdict = Verdict::Correct;
  r.speedup = 1.25;
  r.modeled_us = 12.5;
  r.eager_modeled_us = 15.0;
  for (int d = 0; d < 8; ++d) r.diagnostics.push_back(std::string(600, 'x'));
  for (int c = 0; c < 3; ++c) {
    CaseResult k;
    k.name = "case" + std::to_string(c);
    k.modeled_us = 4.0 + c;
    r.cases.push_back(k);
  }
  return r;
}

std::string where(const std::string& backend) {
  if (backend == "postgresql") {
    const char* url = std::getenv("KGEN_BENCH_PG_URL");
    return url ? url : "";
  }
  static const std::string file = (std::filesystem::temp_directory_path() / "kgen_bench_store.db").string();
  std::filesystem::remove(file);
  std::filesystem::remove(file + "-wal");
  std::filesystem::remove(file + "-shm");
  return file;
}

void Put(benchmark::State& st, const std::string& backend) {
  const std::string w = where(backend);
  if (w.empty()) {
    st.SkipWithError("KGEN_BENCH_PG_URL unset (bench/scale_out.sh sets it)");
    return;
  }
  std::string err;
  auto s = Store::open(w, err);
  if (!s) {
    st.SkipWithError(err.c_str());
    return;
  }
  long i = 0;
  for (auto _ : st) {
    if (!s->put(row(i++), err)) st.SkipWithError(err.c_str());
  }
  st.SetItemsProcessed(st.iterations());
}

void Find(benchmark::State& st, const std::string& backend) {
  const std::string w = where(backend);
  if (w.empty()) {
    st.SkipWithError("KGEN_BENCH_PG_URL unset (bench/scale_out.sh sets it)");
    return;
  }
  std::string err;
  auto s = Store::open(w, err);
  if (!s) {
    st.SkipWithError(err.c_str());
    return;
  }
  for (long i = 0; i < 200; ++i) s->put(row(i), err);
  long i = 0;
  for (auto _ : st) {
    const EvalResult r = row(i++ % 200);
    benchmark::DoNotOptimize(s->find(r.task_hash, r.candidate_hash, r.kgen_version, r.soc, 0));
  }
  st.SetItemsProcessed(st.iterations());
}
}  // namespace

BENCHMARK_CAPTURE(Put, sqlite, std::string("sqlite"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Put, postgresql, std::string("postgresql"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Find, sqlite, std::string("sqlite"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Find, postgresql, std::string("postgresql"))->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
