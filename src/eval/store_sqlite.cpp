// The SQLite backend of the results store (store.h): one file, the embedded default.
#include <sqlite3.h>

#include <mutex>

#include "eval/result_json.h"
#include "eval/store.h"

namespace kgen::eval {
namespace {



constexpr const char* kNow = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
constexpr const char* kEpochNow = "((julianday('now') - 2440587.5) * 86400.0)";   // seconds since 1970, fractional
constexpr const char* kKeyWhere = "task_hash=?1 AND candidate_hash=?2 AND kgen_version=?3 AND soc=?4 AND sample=?5";

// A prepared statement, finalized on scope exit.
struct SqliteStmt {
  sqlite3_stmt* s = nullptr;
  SqliteStmt(sqlite3* db, const std::string& sql, int& rc) { rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr); }
  ~SqliteStmt() { sqlite3_finalize(s); }
  void text(int i, const std::string& v) { sqlite3_bind_text(s, i, v.data(), int(v.size()), SQLITE_TRANSIENT); }
  void integer(int i, std::int64_t v) { sqlite3_bind_int64(s, i, v); }
  void real(int i, double v) { sqlite3_bind_double(s, i, v); }   // NaN is stored as NULL (the JSON keeps it)
  std::string col_text(int i) {
    const unsigned char* p = sqlite3_column_text(s, i);
    return p ? std::string(reinterpret_cast<const char*>(p), size_t(sqlite3_column_bytes(s, i))) : std::string();
  }
};

class SqliteStore final : public Store {
 public:
  ~SqliteStore() override {
    if (db_) sqlite3_close_v2(db_);
  }
  const char* backend() const override { return "sqlite"; }
  bool put(const EvalResult& r, std::string& err) override;
  std::optional<EvalResult> find(const std::string& task_hash, const std::string& candidate_hash,
                                 const std::string& kgen_version, const std::string& soc, int sample,
                                 std::string* err) override;
  std::vector<EvalResult> all(std::string* err) override;
  std::vector<EvalResult> for_task(const std::string& task_id, std::string* err) override;
  std::int64_t count(std::string* err) override;
  std::string created_at(const std::string& task_hash, const std::string& candidate_hash,
                         const std::string& kgen_version, const std::string& soc, int sample) override;
  std::int64_t add_trajectory(const std::string& task_id, const std::string& candidate_hash, int sample, int round,
                              const std::string& kind, const std::string& text, std::string& err) override;
  std::vector<Trajectory> trajectories_for(const std::string& task_id, std::string* err) override;
  Claim claim(const StoreKey& k, const std::string& owner, double lease_s, std::string& err) override;
  bool renew_claims(const std::string& owner, double lease_s, std::string& err) override;
  void release(const StoreKey& k, const std::string& owner) override;
  std::optional<std::string> get_reply(const std::string& key, std::string* err) override;
  bool put_reply(const std::string& key, const std::string& text, std::string& err) override;
  std::string integrity_check() override;

  sqlite3* db_ = nullptr;

 private:
  friend std::unique_ptr<Store> kgen::eval::open_sqlite_store(const std::string&, std::string&, int);
  std::vector<EvalResult> query_results(const char* sql, const std::string* arg, std::string* err);
  std::string fail(const std::string& what) const;   // "results store <path>: <what>: <sqlite errmsg>"
  bool exec(const char* sql) { return sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) == SQLITE_OK; }
  std::mutex mu_;
};

void bind_key(SqliteStmt& q, const StoreKey& k) {
  q.text(1, k.task_hash);
  q.text(2, k.candidate_hash);
  q.text(3, k.kgen_version);
  q.text(4, k.soc);
  q.integer(5, k.sample);
}

}  // namespace

std::string SqliteStore::fail(const std::string& what) const {
  std::string m = "results store " + path_ + ": " + what;
  if (db_) m += ": " + std::string(sqlite3_errmsg(db_)) + " (sqlite code " + std::to_string(sqlite3_extended_errcode(db_)) + ")";
  return m;
}

std::unique_ptr<Store> open_sqlite_store(const std::string& path, std::string& err, int busy_timeout_ms) {
  std::unique_ptr<SqliteStore> st(new SqliteStore());
  st->path_ = path;
  int rc = sqlite3_open_v2(path.c_str(), &st->db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                           nullptr);
  if (rc != SQLITE_OK) {
    err = st->fail("cannot open or create the file (does its folder exist and is it writable?)");
    return nullptr;
  }
  sqlite3_extended_result_codes(st->db_, 1);
  sqlite3_busy_timeout(st->db_, busy_timeout_ms);
  if (sqlite3_db_readonly(st->db_, "main") == 1) {
    err = "results store " + path + ": the file is read-only (check its permissions); the store must be writable";
    return nullptr;
  }
  // journal_mode=WAL reads the header: the first place a non-database or damaged file shows up.
  {
    SqliteStmt q(st->db_, "PRAGMA journal_mode=WAL", rc);
    if (rc == SQLITE_OK) rc = sqlite3_step(q.s);
    if (rc != SQLITE_ROW) {
      err = st->fail("cannot use the file as a results store (not a SQLite database, damaged, or not writable)");
      return nullptr;
    }
    std::string mode = q.col_text(0);
    if (mode != "wal") {
      err = "results store " + path + ": cannot switch to the WAL journal (got journal mode '" + mode +
            "'; the file system may not support the shared memory WAL needs)";
      return nullptr;
    }
  }
  auto exec = [&](const char* sql, const char* what) {
    char* msg = nullptr;
    int r = sqlite3_exec(st->db_, sql, nullptr, nullptr, &msg);
    sqlite3_free(msg);
    if (r != SQLITE_OK) err = st->fail(what);
    return r == SQLITE_OK;
  };
  if (!exec("PRAGMA synchronous=FULL", "cannot set synchronous=FULL")) return nullptr;
  // Schema creation and version check in one write transaction, so two processes opening a new file at once agree.
  if (!exec("BEGIN IMMEDIATE", "cannot start the schema transaction")) return nullptr;
  auto rollback = [&] { sqlite3_exec(st->db_, "ROLLBACK", nullptr, nullptr, nullptr); };
  if (!exec("CREATE TABLE IF NOT EXISTS schema_version(version INTEGER NOT NULL)", "cannot create the schema_version table")) {
    rollback();
    return nullptr;
  }
  int version = 0;
  {
    SqliteStmt q(st->db_, "SELECT max(version) FROM schema_version", rc);
    if (rc == SQLITE_OK) rc = sqlite3_step(q.s);
    if (rc != SQLITE_ROW) {
      err = st->fail("cannot read the schema version");
      rollback();
      return nullptr;
    }
    version = sqlite3_column_int(q.s, 0);
  }
  if (version > Store::kSchemaVersion) {
    err = "results store " + path + ": schema version " + std::to_string(version) + " was written by a newer kgen (this one reads version " +
          std::to_string(Store::kSchemaVersion) + "); use a newer kgen or another store file";
    rollback();
    return nullptr;
  }
  if (!exec(store_tables_sql("id INTEGER PRIMARY KEY AUTOINCREMENT").c_str(), "cannot create the results/trajectories tables")) {
    rollback();
    return nullptr;
  }
  if (version < Store::kSchemaVersion && !exec(("INSERT INTO schema_version(version) VALUES(" + std::to_string(Store::kSchemaVersion) + ")").c_str(),
                            "cannot record the schema version")) {
    rollback();
    return nullptr;
  }
  if (!exec("COMMIT", "cannot commit the schema")) {
    rollback();
    return nullptr;
  }
  return st;
}

bool SqliteStore::put(const EvalResult& r, std::string& err) {
  std::lock_guard<std::mutex> lock(mu_);
  int rc;
  // One transaction: the row in, the key's claim out; durable when this returns true.
  if (!exec("BEGIN IMMEDIATE")) {
    err = fail("cannot start the transaction storing task '" + r.task_id + "'");
    return false;
  }
  SqliteStmt q(db_,
         std::string("INSERT INTO results(task_hash, candidate_hash, kgen_version, soc, sample, task_id, category, level, "
                     "candidate, candidate_kind, verdict, speedup, modeled_us, eager_modeled_us, created_at, result_json) "
                     "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ") + kNow + ", ?15) "
                     "ON CONFLICT(task_hash, candidate_hash, kgen_version, soc, sample) DO UPDATE SET "
                     "task_id=excluded.task_id, category=excluded.category, level=excluded.level, "
                     "candidate=excluded.candidate, candidate_kind=excluded.candidate_kind, verdict=excluded.verdict, "
                     "speedup=excluded.speedup, modeled_us=excluded.modeled_us, "
                     "eager_modeled_us=excluded.eager_modeled_us, created_at=excluded.created_at, "
                     "result_json=excluded.result_json",
         rc);
  if (rc != SQLITE_OK) { err = fail("cannot prepare the insert"); return false; }
  q.text(1, r.task_hash);
  q.text(2, r.candidate_hash);
  q.text(3, r.kgen_version);
  q.text(4, r.soc);
  q.integer(5, r.sample);
  q.text(6, r.task_id);
  q.text(7, r.category);
  q.integer(8, r.level);
  q.text(9, r.candidate);
  q.text(10, r.candidate_kind);
  q.text(11, verdict_name(r.verdict));
  q.real(12, r.speedup);
  q.real(13, r.modeled_us);
  q.real(14, r.eager_modeled_us);
  q.text(15, to_json(r).dump());
  rc = sqlite3_step(q.s);
  bool ok = rc == SQLITE_DONE;
  if (ok) {
    SqliteStmt d(db_, std::string("DELETE FROM claims WHERE ") + kKeyWhere, rc);
    if (rc == SQLITE_OK) {
      bind_key(d, StoreKey{r.task_hash, r.candidate_hash, r.kgen_version, r.soc, r.sample});
      ok = sqlite3_step(d.s) == SQLITE_DONE;
    } else {
      ok = false;
    }
  }
  if (!ok || !exec("COMMIT")) {
    err = fail("cannot store the result of task '" + r.task_id + "' sample " + std::to_string(r.sample));
    exec("ROLLBACK");
    return false;
  }
  return true;
}

std::vector<EvalResult> SqliteStore::query_results(const char* sql, const std::string* arg, std::string* err) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<EvalResult> out;
  int rc;
  SqliteStmt q(db_, sql, rc);
  if (rc != SQLITE_OK) {
    if (err) *err = fail("cannot prepare the query");
    return out;
  }
  if (arg) q.text(1, *arg);
  while ((rc = sqlite3_step(q.s)) == SQLITE_ROW) {
    EvalResult r;
    std::string perr;
    if (!decode_result(q.col_text(0), r, perr)) {
      if (err) *err = "results store " + path_ + ": row of task '" + q.col_text(1) + "': " + perr;
      continue;
    }
    out.push_back(std::move(r));
  }
  if (rc != SQLITE_DONE && err) *err = fail("cannot read the results");
  return out;
}

std::optional<EvalResult> SqliteStore::find(const std::string& task_hash, const std::string& candidate_hash,
                                            const std::string& kgen_version, const std::string& soc, int sample,
                                      std::string* err) {
  std::lock_guard<std::mutex> lock(mu_);
  int rc;
  SqliteStmt q(db_,
         "SELECT result_json FROM results WHERE task_hash=?1 AND candidate_hash=?2 AND kgen_version=?3 AND soc=?4 "
         "AND sample=?5",
         rc);
  if (rc != SQLITE_OK) {
    if (err) *err = fail("cannot prepare the lookup");
    return std::nullopt;
  }
  q.text(1, task_hash);
  q.text(2, candidate_hash);
  q.text(3, kgen_version);
  q.text(4, soc);
  q.integer(5, sample);
  rc = sqlite3_step(q.s);
  if (rc == SQLITE_DONE) return std::nullopt;
  if (rc != SQLITE_ROW) {
    if (err) *err = fail("cannot look up a result");
    return std::nullopt;
  }
  EvalResult r;
  std::string perr;
  if (!decode_result(q.col_text(0), r, perr)) {
    if (err) *err = "results store " + path_ + ": stored result of task hash " + task_hash + ": " + perr;
    return std::nullopt;
  }
  return r;
}

std::vector<EvalResult> SqliteStore::all(std::string* err) {
  return query_results("SELECT result_json, task_id FROM results ORDER BY task_id, sample, candidate_hash, kgen_version, soc",
                       nullptr, err);
}

std::vector<EvalResult> SqliteStore::for_task(const std::string& task_id, std::string* err) {
  return query_results(
      "SELECT result_json, task_id FROM results WHERE task_id=?1 ORDER BY sample, candidate_hash, kgen_version, soc",
      &task_id, err);
}

std::int64_t SqliteStore::count(std::string* err) {
  std::lock_guard<std::mutex> lock(mu_);
  int rc;
  SqliteStmt q(db_, "SELECT count(*) FROM results", rc);
  if (rc == SQLITE_OK) rc = sqlite3_step(q.s);
  if (rc != SQLITE_ROW) {
    if (err) *err = fail("cannot count the results");
    return -1;
  }
  return sqlite3_column_int64(q.s, 0);
}

std::string SqliteStore::created_at(const std::string& task_hash, const std::string& candidate_hash,
                              const std::string& kgen_version, const std::string& soc, int sample) {
  std::lock_guard<std::mutex> lock(mu_);
  int rc;
  SqliteStmt q(db_,
         "SELECT created_at FROM results WHERE task_hash=?1 AND candidate_hash=?2 AND kgen_version=?3 AND soc=?4 "
         "AND sample=?5",
         rc);
  if (rc != SQLITE_OK) return "";
  q.text(1, task_hash);
  q.text(2, candidate_hash);
  q.text(3, kgen_version);
  q.text(4, soc);
  q.integer(5, sample);
  return sqlite3_step(q.s) == SQLITE_ROW ? q.col_text(0) : std::string();
}

std::int64_t SqliteStore::add_trajectory(const std::string& task_id, const std::string& candidate_hash, int sample, int round,
                                   const std::string& kind, const std::string& text, std::string& err) {
  if (kind != "prompt" && kind != "response" && kind != "verdict") {
    err = "results store " + path_ + ": trajectory kind '" + kind + "' is not one of prompt, response, verdict";
    return -1;
  }
  std::lock_guard<std::mutex> lock(mu_);
  int rc;
  SqliteStmt q(db_,
         std::string("INSERT INTO trajectories(task_id, candidate_hash, sample, round, kind, text, created_at) "
                     "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ") + kNow + ")",
         rc);
  if (rc != SQLITE_OK) { err = fail("cannot prepare the trajectory insert"); return -1; }
  q.text(1, task_id);
  q.text(2, candidate_hash);
  q.integer(3, sample);
  q.integer(4, round);
  q.text(5, kind);
  q.text(6, text);
  if (sqlite3_step(q.s) != SQLITE_DONE) {
    err = fail("cannot store a trajectory record of task '" + task_id + "'");
    return -1;
  }
  return sqlite3_last_insert_rowid(db_);
}

std::vector<Trajectory> SqliteStore::trajectories_for(const std::string& task_id, std::string* err) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Trajectory> out;
  int rc;
  SqliteStmt q(db_,
         "SELECT id, task_id, candidate_hash, sample, round, kind, text, created_at FROM trajectories WHERE task_id=?1 "
         "ORDER BY sample, round, id",
         rc);
  if (rc != SQLITE_OK) {
    if (err) *err = fail("cannot prepare the trajectory query");
    return out;
  }
  q.text(1, task_id);
  while ((rc = sqlite3_step(q.s)) == SQLITE_ROW) {
    Trajectory t;
    t.id = sqlite3_column_int64(q.s, 0);
    t.task_id = q.col_text(1);
    t.candidate_hash = q.col_text(2);
    t.sample = sqlite3_column_int(q.s, 3);
    t.round = sqlite3_column_int(q.s, 4);
    t.kind = q.col_text(5);
    t.text = q.col_text(6);
    t.created_at = q.col_text(7);
    out.push_back(std::move(t));
  }
  if (rc != SQLITE_DONE && err) *err = fail("cannot read the trajectories");
  return out;
}

Claim SqliteStore::claim(const StoreKey& k, const std::string& owner, double lease_s, std::string& err) {
  std::lock_guard<std::mutex> lock(mu_);
  int rc;
  // BEGIN IMMEDIATE serializes writers across processes: the claim and the look-up see one state.
  if (!exec("BEGIN IMMEDIATE")) {
    err = fail("cannot start the claim transaction");
    return Claim::Mine;
  }
  Claim out = Claim::Mine;
  bool ok = false;
  {
    SqliteStmt have(db_, std::string("SELECT 1 FROM results WHERE ") + kKeyWhere, rc);
    if (rc == SQLITE_OK) {
      bind_key(have, k);
      rc = sqlite3_step(have.s);
      if (rc == SQLITE_ROW) {
        out = Claim::Done;
        ok = true;
      } else if (rc == SQLITE_DONE) {
        SqliteStmt up(db_,
                      std::string("INSERT INTO claims(task_hash, candidate_hash, kgen_version, soc, sample, owner, "
                                  "expires_at) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ") + kEpochNow + " + ?7) "
                      "ON CONFLICT(task_hash, candidate_hash, kgen_version, soc, sample) DO UPDATE SET "
                      "owner=excluded.owner, expires_at=excluded.expires_at WHERE claims.owner=excluded.owner OR "
                      "claims.expires_at < " + kEpochNow,
                      rc);
        if (rc == SQLITE_OK) {
          bind_key(up, k);
          up.text(6, owner);
          up.real(7, lease_s);
          if (sqlite3_step(up.s) == SQLITE_DONE) {
            SqliteStmt who(db_, std::string("SELECT owner FROM claims WHERE ") + kKeyWhere, rc);
            if (rc == SQLITE_OK) {
              bind_key(who, k);
              if (sqlite3_step(who.s) == SQLITE_ROW) {
                out = who.col_text(0) == owner ? Claim::Mine : Claim::Taken;
                ok = true;
              }
            }
          }
        }
      }
    }
  }
  if (!ok || !exec("COMMIT")) {
    err = fail("cannot claim an evaluation");
    exec("ROLLBACK");
    return Claim::Mine;
  }
  return out;
}

bool SqliteStore::renew_claims(const std::string& owner, double lease_s, std::string& err) {
  std::lock_guard<std::mutex> lock(mu_);
  int rc;
  SqliteStmt q(db_, std::string("UPDATE claims SET expires_at = ") + kEpochNow + " + ?2 WHERE owner=?1", rc);
  if (rc == SQLITE_OK) {
    q.text(1, owner);
    q.real(2, lease_s);
    rc = sqlite3_step(q.s);
  }
  if (rc != SQLITE_DONE) {
    err = fail("cannot renew the claims of " + owner);
    return false;
  }
  return true;
}

void SqliteStore::release(const StoreKey& k, const std::string& owner) {
  std::lock_guard<std::mutex> lock(mu_);
  int rc;
  SqliteStmt q(db_, std::string("DELETE FROM claims WHERE ") + kKeyWhere + " AND owner=?6", rc);
  if (rc != SQLITE_OK) return;
  bind_key(q, k);
  q.text(6, owner);
  sqlite3_step(q.s);   // a claim left behind expires by itself
}

std::optional<std::string> SqliteStore::get_reply(const std::string& key, std::string* err) {
  std::lock_guard<std::mutex> lock(mu_);
  int rc;
  SqliteStmt q(db_, "SELECT text FROM replies WHERE key=?1", rc);
  if (rc == SQLITE_OK) {
    q.text(1, key);
    rc = sqlite3_step(q.s);
    if (rc == SQLITE_ROW) return q.col_text(0);
  }
  if (rc != SQLITE_DONE && err) *err = fail("cannot look up a cached reply");
  return std::nullopt;
}

bool SqliteStore::put_reply(const std::string& key, const std::string& text, std::string& err) {
  std::lock_guard<std::mutex> lock(mu_);
  int rc;
  SqliteStmt q(db_, std::string("INSERT INTO replies(key, text, created_at) VALUES(?1, ?2, ") + kNow +
                        ") ON CONFLICT(key) DO NOTHING",
               rc);
  if (rc == SQLITE_OK) {
    q.text(1, key);
    q.text(2, text);
    rc = sqlite3_step(q.s);
  }
  if (rc != SQLITE_DONE) {
    err = fail("cannot cache a reply");
    return false;
  }
  return true;
}

std::string SqliteStore::integrity_check() {
  std::lock_guard<std::mutex> lock(mu_);
  int rc;
  SqliteStmt q(db_, "PRAGMA integrity_check", rc);
  if (rc != SQLITE_OK) return fail("cannot run integrity_check");
  std::string out;
  while ((rc = sqlite3_step(q.s)) == SQLITE_ROW) {
    if (!out.empty()) out += "\n";
    out += q.col_text(0);
  }
  if (rc != SQLITE_DONE) return fail("integrity_check failed");
  return out;
}

}  // namespace kgen::eval
