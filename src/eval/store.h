// The results store: every EvalResult keyed by content hashes (task_hash, candidate_hash, kgen_version, soc, sample),
// the LLM trajectories (prompts, responses, verdicts per round), the LLM reply cache, and the claims that let many
// hosts sharing one store evaluate each candidate once.
//
// Two backends behind this one interface (everything above it has one code path):
//   a file path            SQLite (store_sqlite.cpp), the embedded default: WAL journal, synchronous=FULL;
//   postgresql://... or    PostgreSQL (store_pg.cpp, libpq): one database shared by many benches and `kgen serve`
//   postgres://...         instances on many machines (docs/scale-out.md).
// Durability: every write is one transaction committed before it returns, so a kill -9 loses at most the
// evaluation in flight and never leaves a partial row. Several processes may share one store; one Store object may
// be used from several threads (calls are serialized), but each process opens its own (never across fork()).
//
// Errors are precise: "results store <where>: <what>: <database message>" (a URL's password is never printed).
// Writers return false and set err; readers return empty results and set *err when given.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "eval/result.h"

namespace kgen::eval {

struct Trajectory {
  std::int64_t id = 0;
  std::string task_id, candidate_hash;
  int sample = 0, round = 0;
  std::string kind;                // "prompt", "response" or "verdict"
  std::string text;
  std::string created_at;          // UTC, "2025-01-31T12:34:56.789Z"
};

// The key of one stored result (the results table's primary key).
struct StoreKey {
  std::string task_hash, candidate_hash, kgen_version, soc;
  int sample = 0;
};

// What claim() found.
enum class Claim {
  Mine,    // this owner holds the claim now: evaluate, then put() (which releases it) or release()
  Taken,   // another owner holds an unexpired claim: its result will come; ask again later
  Done,    // a result is stored under the key: use it
};

class Store {
 public:
  static constexpr int kSchemaVersion = 2;   // 2: claims and replies tables
  // Opens (creating the tables if absent) the store at `where`: a file path (SQLite) or a postgresql:// URL. nullptr
  // with err on an unwritable path, a file that is not a SQLite database, a damaged one, a server that cannot be
  // reached or refuses the login, or a schema newer than this kgen's.
  static std::unique_ptr<Store> open(const std::string& where, std::string& err, int busy_timeout_ms = 30000);
  // True when `where` names a PostgreSQL database (postgresql:// or postgres://) rather than a file.
  static bool is_url(const std::string& where);
  // `where` as it may be printed: a URL's password replaced by "***".
  static std::string printable(const std::string& where);
  virtual ~Store() = default;
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::string& path() const { return path_; }       // printable()
  virtual const char* backend() const = 0;                  // "sqlite" or "postgresql"

  // Insert or replace the row of r's key (task_hash, candidate_hash, kgen_version, soc, sample); created_at = now.
  // Releases any claim on the key in the same transaction.
  virtual bool put(const EvalResult& r, std::string& err) = 0;
  // The stored result of that key (what `kgen bench` uses to skip unchanged work), or nullopt.
  virtual std::optional<EvalResult> find(const std::string& task_hash, const std::string& candidate_hash,
                                         const std::string& kgen_version, const std::string& soc, int sample,
                                         std::string* err = nullptr) = 0;
  virtual std::vector<EvalResult> all(std::string* err = nullptr) = 0;                  // by task_id, sample, key
  virtual std::vector<EvalResult> for_task(const std::string& task_id, std::string* err = nullptr) = 0;
  virtual std::int64_t count(std::string* err = nullptr) = 0;                            // rows in results; -1 on error
  // The created_at of that key's row ("" when absent).
  virtual std::string created_at(const std::string& task_hash, const std::string& candidate_hash,
                                 const std::string& kgen_version, const std::string& soc, int sample) = 0;

  // Appends one trajectory record; returns its id, or -1 with err (kind must be prompt, response or verdict).
  virtual std::int64_t add_trajectory(const std::string& task_id, const std::string& candidate_hash, int sample,
                                      int round, const std::string& kind, const std::string& text,
                                      std::string& err) = 0;
  virtual std::vector<Trajectory> trajectories_for(const std::string& task_id, std::string* err = nullptr) = 0;

  // Claims: one owner (a host's bench or serve process, e.g. "host:pid:random") evaluates a key while others wait
  // for its result. A claim lasts lease_s seconds from the database's clock unless renewed; the claim of a host that
  // died expires and the next claim() takes it over. Errors return Mine (the caller evaluates: work is never lost to
  // a store problem) with err set.
  virtual Claim claim(const StoreKey& k, const std::string& owner, double lease_s, std::string& err) = 0;
  // Extends every claim `owner` holds to lease_s seconds from now; false with err when the store cannot be written.
  virtual bool renew_claims(const std::string& owner, double lease_s, std::string& err) = 0;
  // Drops the owner's claim on k (an evaluation that produced no result to store).
  virtual void release(const StoreKey& k, const std::string& owner) = 0;

  // The LLM reply cache (gen/client.h): reply text by content key; put_reply keeps the first text stored for a key.
  virtual std::optional<std::string> get_reply(const std::string& key, std::string* err = nullptr) = 0;
  virtual bool put_reply(const std::string& key, const std::string& text, std::string& err) = 0;

  // The database's own consistency check: "ok" or the problems found.
  virtual std::string integrity_check() = 0;

 protected:
  Store() = default;
  std::string path_;
};

// The stored JSON of one results row as an EvalResult; false with `why` when it does not parse.
bool decode_result(const std::string& json_text, EvalResult& r, std::string& why);
// Claims last kClaimLeaseS seconds; a process holding claims renews them every kClaimRenewS seconds (ClaimKeeper),
// so a host that dies frees its claims within a minute.
constexpr double kClaimLeaseS = 60;
constexpr double kClaimRenewS = 15;

// The tables both backends create (schema_version aside): results, trajectories, claims, replies. id_column is the
// trajectories' key, which the two databases spell differently; DOUBLE PRECISION has SQLite's REAL affinity.
std::string store_tables_sql(const std::string& id_column);

// Backends (store.cpp's open() picks one).
std::unique_ptr<Store> open_sqlite_store(const std::string& path, std::string& err, int busy_timeout_ms);
std::unique_ptr<Store> open_pg_store(const std::string& url, std::string& err);

}  // namespace kgen::eval
