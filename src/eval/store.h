// The results store: one SQLite file holding every EvalResult, keyed by content hashes (task_hash, candidate_hash,
// kgen_version, soc, sample), plus the LLM trajectories (prompts, responses, verdicts per round).
//
// Durability: WAL journal with synchronous=FULL; every put() is one transaction committed before it returns, so a
// kill -9 (or power loss) loses at most the evaluation in flight. Several processes may share one file
// (busy_timeout: a writer waits up to `busy_timeout_ms` for another's transaction instead of failing). One Store
// object may be used from several threads (calls are serialized), but each process must open its own Store (never
// use a Store across fork()).
//
// Errors are precise: "results store <path>: <what> : <sqlite message>". Writers return false and set err; readers
// return empty results and set *err when given.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "eval/result.h"

struct sqlite3;

namespace kgen::eval {

struct Trajectory {
  std::int64_t id = 0;
  std::string task_id, candidate_hash;
  int sample = 0, round = 0;
  std::string kind;                // "prompt", "response" or "verdict"
  std::string text;
  std::string created_at;          // UTC, "2025-01-31T12:34:56.789Z"
};

class Store {
 public:
  static constexpr int kSchemaVersion = 1;
  // Opens (creating if absent) the store at path. nullptr with err on an unwritable path, a file that is not a
  // SQLite database, a damaged one, or a schema newer than this kgen's.
  static std::unique_ptr<Store> open(const std::string& path, std::string& err, int busy_timeout_ms = 30000);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::string& path() const { return path_; }

  // Insert or replace the row of r's key (task_hash, candidate_hash, kgen_version, soc, sample); created_at = now.
  bool put(const EvalResult& r, std::string& err);
  // The stored result of that key (what `kgen bench` uses to skip unchanged work), or nullopt.
  std::optional<EvalResult> find(const std::string& task_hash, const std::string& candidate_hash,
                                 const std::string& kgen_version, const std::string& soc, int sample,
                                 std::string* err = nullptr);
  std::vector<EvalResult> all(std::string* err = nullptr);                              // by task_id, sample, key
  std::vector<EvalResult> for_task(const std::string& task_id, std::string* err = nullptr);
  std::int64_t count(std::string* err = nullptr);                                        // rows in results; -1 on error
  // The created_at of that key's row ("" when absent).
  std::string created_at(const std::string& task_hash, const std::string& candidate_hash,
                         const std::string& kgen_version, const std::string& soc, int sample);

  // Appends one trajectory record; returns its id, or -1 with err (kind must be prompt, response or verdict).
  std::int64_t add_trajectory(const std::string& task_id, const std::string& candidate_hash, int sample, int round,
                              const std::string& kind, const std::string& text, std::string& err);
  std::vector<Trajectory> trajectories_for(const std::string& task_id, std::string* err = nullptr);  // by sample, round, id

  // PRAGMA integrity_check: "ok" or the problems found.
  std::string integrity_check();

 private:
  Store() = default;
  std::vector<EvalResult> query_results(const char* sql, const std::string* arg, std::string* err);
  std::string fail(const std::string& what) const;   // "results store <path>: <what>: <sqlite errmsg>"
  sqlite3* db_ = nullptr;
  std::string path_;
  std::mutex mu_;
};

}  // namespace kgen::eval
