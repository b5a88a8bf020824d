// The results store's backend choice and what both backends share (store.h).
#include "eval/store.h"

#include "eval/result_json.h"

namespace kgen::eval {

bool Store::is_url(const std::string& where) {
  return where.rfind("postgresql://", 0) == 0 || where.rfind("postgres://", 0) == 0;
}

std::string Store::printable(const std::string& where) {
  if (!is_url(where)) return where;
  // scheme://user:password@host/...: the password is whatever lies between the user's ':' and the last '@' of the
  // authority (a password may itself hold '@').
  const size_t auth = where.find("://") + 3;
  size_t end = where.find_first_of("/?", auth);
  if (end == std::string::npos) end = where.size();
  const size_t at = where.rfind('@', end);
  if (at == std::string::npos || at < auth) return where;
  const size_t colon = where.find(':', auth);
  if (colon == std::string::npos || colon > at) return where;
  return where.substr(0, colon + 1) + "***" + where.substr(at);
}

std::unique_ptr<Store> Store::open(const std::string& where, std::string& err, int busy_timeout_ms) {
  if (where.empty()) {
    err = "results store: no path or postgresql:// URL given";
    return nullptr;
  }
  return is_url(where) ? open_pg_store(where, err) : open_sqlite_store(where, err, busy_timeout_ms);
}

std::string store_tables_sql(const std::string& id_column) {
  return R"sql(
CREATE TABLE IF NOT EXISTS results(
  task_hash TEXT NOT NULL,
  candidate_hash TEXT NOT NULL,
  kgen_version TEXT NOT NULL,
  soc TEXT NOT NULL,
  sample INTEGER NOT NULL,
  task_id TEXT NOT NULL,
  category TEXT NOT NULL,
  level INTEGER NOT NULL,
  candidate TEXT NOT NULL,
  candidate_kind TEXT NOT NULL,
  verdict TEXT NOT NULL,
  speedup DOUBLE PRECISION,
  modeled_us DOUBLE PRECISION,
  eager_modeled_us DOUBLE PRECISION,
  created_at TEXT NOT NULL,
  result_json TEXT NOT NULL,
  PRIMARY KEY(task_hash, candidate_hash, kgen_version, soc, sample));
CREATE INDEX IF NOT EXISTS results_by_task ON results(task_id);
CREATE TABLE IF NOT EXISTS trajectories(
  )sql" + id_column + R"sql(,
  task_id TEXT NOT NULL,
  candidate_hash TEXT NOT NULL,
  sample INTEGER NOT NULL,
  round INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK(kind IN ('prompt', 'response', 'verdict')),
  text TEXT NOT NULL,
  created_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS trajectories_by_task ON trajectories(task_id);
CREATE TABLE IF NOT EXISTS claims(
  task_hash TEXT NOT NULL,
  candidate_hash TEXT NOT NULL,
  kgen_version TEXT NOT NULL,
  soc TEXT NOT NULL,
  sample INTEGER NOT NULL,
  owner TEXT NOT NULL,
  expires_at DOUBLE PRECISION NOT NULL,
  PRIMARY KEY(task_hash, candidate_hash, kgen_version, soc, sample));
CREATE TABLE IF NOT EXISTS replies(
  key TEXT PRIMARY KEY,
  text TEXT NOT NULL,
  created_at TEXT NOT NULL);
)sql";
}

bool decode_result(const std::string& json_text, EvalResult& r, std::string& why) {
  nlohmann::json j = nlohmann::json::parse(json_text, nullptr, false);
  if (j.is_discarded()) {
    why = "the stored JSON does not parse";
    return false;
  }
  from_json(j, r, why);
  return why.empty();
}

}  // namespace kgen::eval
