// The PostgreSQL backend of the results store (store.h): one database shared by many benches and `kgen serve`
// instances on many machines. The same tables as the SQLite file; times from the server's clock, so that hosts with
// different clocks agree on when a claim expires.
#include <libpq-fe.h>

#include <cmath>
#include <cstdio>
#include <mutex>

#include "eval/result_json.h"
#include "eval/store.h"

namespace kgen::eval {
namespace {



// The server's clock: UTC text as the SQLite store writes it, and seconds since 1970 for claim expiry.
constexpr const char* kPgNow = "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')";
constexpr const char* kPgEpochNow = "extract(epoch from clock_timestamp())::double precision";
constexpr const char* kPgKeyWhere = "task_hash=$1 AND candidate_hash=$2 AND kgen_version=$3 AND soc=$4 AND sample=$5";
// The advisory lock that serializes schema creation between processes opening a new database at once.
constexpr const char* kPgSchemaLock = "SELECT pg_advisory_xact_lock(7404312020)";

// A query's result, cleared on scope exit. Parameters go as text (NULL for a missing value).
struct PgResult {
  PGresult* r = nullptr;
  PgResult(PGconn* c, const std::string& sql, const std::vector<std::optional<std::string>>& params = {}) {
    if (params.empty()) {   // PQexec: the schema is several statements, which PQexecParams refuses
      r = PQexec(c, sql.c_str());
      return;
    }
    std::vector<const char*> values;
    for (const auto& p : params) values.push_back(p ? p->c_str() : nullptr);
    r = PQexecParams(c, sql.c_str(), int(values.size()), nullptr, values.data(), nullptr, nullptr, 0);
  }
  ~PgResult() { PQclear(r); }
  PgResult(const PgResult&) = delete;
  PgResult& operator=(const PgResult&) = delete;
  bool ok() const {
    const ExecStatusType s = PQresultStatus(r);
    return s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
  }
  int rows() const { return PQntuples(r); }
  std::string text(int row, int col) const { return std::string(PQgetvalue(r, row, col), size_t(PQgetlength(r, row, col))); }
};

std::optional<std::string> pg_real(double v) {   // NaN is stored as NULL (the JSON keeps it), as in the SQLite store
  if (std::isnan(v)) return std::nullopt;
  if (std::isinf(v)) return std::string(v > 0 ? "Infinity" : "-Infinity");
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return std::string(buf);
}

std::vector<std::optional<std::string>> key_params(const StoreKey& k) {
  return {k.task_hash, k.candidate_hash, k.kgen_version, k.soc, std::to_string(k.sample)};
}

class PgStore final : public Store {
 public:
  ~PgStore() override {
    if (conn_) PQfinish(conn_);
  }
  const char* backend() const override { return "postgresql"; }

  bool put(const EvalResult& r, std::string& err) override {
    std::lock_guard<std::mutex> lock(mu_);
    const StoreKey k{r.task_hash, r.candidate_hash, r.kgen_version, r.soc, r.sample};
    std::vector<std::optional<std::string>> p = key_params(k);
    for (auto v : {std::optional<std::string>(r.task_id), std::optional<std::string>(r.category),
                   std::optional<std::string>(std::to_string(r.level)), std::optional<std::string>(r.candidate),
                   std::optional<std::string>(r.candidate_kind), std::optional<std::string>(verdict_name(r.verdict)),
                   pg_real(r.speedup), pg_real(r.modeled_us), pg_real(r.eager_modeled_us),
                   std::optional<std::string>(to_json(r).dump())})
      p.push_back(v);
    // One transaction: the row in, the key's claim out; committed (durable) when this returns true.
    const bool ok = transaction([&] {
      PgResult ins(conn_,
                   std::string("INSERT INTO results(task_hash, candidate_hash, kgen_version, soc, sample, task_id, "
                               "category, level, candidate, candidate_kind, verdict, speedup, modeled_us, "
                               "eager_modeled_us, created_at, result_json) VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, "
                               "$10, $11, $12, $13, $14, ") + kPgNow + ", $15) "
                   "ON CONFLICT(task_hash, candidate_hash, kgen_version, soc, sample) DO UPDATE SET "
                   "task_id=excluded.task_id, category=excluded.category, level=excluded.level, "
                   "candidate=excluded.candidate, candidate_kind=excluded.candidate_kind, verdict=excluded.verdict, "
                   "speedup=excluded.speedup, modeled_us=excluded.modeled_us, eager_modeled_us=excluded.eager_modeled_us, "
                   "created_at=excluded.created_at, result_json=excluded.result_json",
                   p);
      if (!ins.ok()) return false;
      PgResult del(conn_, std::string("DELETE FROM claims WHERE ") + kPgKeyWhere, key_params(k));
      return del.ok();
    });
    if (!ok) err = fail("cannot store the result of task '" + r.task_id + "' sample " + std::to_string(r.sample));
    return ok;
  }

  std::optional<EvalResult> find(const std::string& task_hash, const std::string& candidate_hash,
                                 const std::string& kgen_version, const std::string& soc, int sample,
                                 std::string* err) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto q = query(std::string("SELECT result_json FROM results WHERE ") + kPgKeyWhere,
                   key_params({task_hash, candidate_hash, kgen_version, soc, sample}));
    if (!q->ok()) {
      if (err) *err = fail("cannot look up a result");
      return std::nullopt;
    }
    if (q->rows() == 0) return std::nullopt;
    EvalResult r;
    std::string why;
    if (!decode_result(q->text(0, 0), r, why)) {
      if (err) *err = "results store " + path_ + ": stored result of task hash " + task_hash + ": " + why;
      return std::nullopt;
    }
    return r;
  }

  std::vector<EvalResult> all(std::string* err) override {
    return query_results("SELECT result_json, task_id FROM results ORDER BY task_id, sample, candidate_hash, "
                         "kgen_version, soc",
                         {}, err);
  }
  std::vector<EvalResult> for_task(const std::string& task_id, std::string* err) override {
    return query_results("SELECT result_json, task_id FROM results WHERE task_id=$1 ORDER BY sample, candidate_hash, "
                         "kgen_version, soc",
                         {task_id}, err);
  }

  std::int64_t count(std::string* err) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto q = query("SELECT count(*) FROM results", {});
    if (!q->ok() || q->rows() != 1) {
      if (err) *err = fail("cannot count the results");
      return -1;
    }
    return std::stoll(q->text(0, 0));
  }

  std::string created_at(const std::string& task_hash, const std::string& candidate_hash,
                         const std::string& kgen_version, const std::string& soc, int sample) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto q = query(std::string("SELECT created_at FROM results WHERE ") + kPgKeyWhere,
                   key_params({task_hash, candidate_hash, kgen_version, soc, sample}));
    return q->ok() && q->rows() == 1 ? q->text(0, 0) : std::string();
  }

  std::int64_t add_trajectory(const std::string& task_id, const std::string& candidate_hash, int sample, int round,
                              const std::string& kind, const std::string& text, std::string& err) override {
    if (kind != "prompt" && kind != "response" && kind != "verdict") {
      err = "results store " + path_ + ": trajectory kind '" + kind + "' is not one of prompt, response, verdict";
      return -1;
    }
    std::lock_guard<std::mutex> lock(mu_);
    auto q = query(std::string("INSERT INTO trajectories(task_id, candidate_hash, sample, round, kind, text, "
                               "created_at) VALUES($1, $2, $3, $4, $5, $6, ") + kPgNow + ") RETURNING id",
                   {task_id, candidate_hash, std::to_string(sample), std::to_string(round), kind, text});
    if (!q->ok() || q->rows() != 1) {
      err = fail("cannot store a trajectory record of task '" + task_id + "'");
      return -1;
    }
    return std::stoll(q->text(0, 0));
  }

  std::vector<Trajectory> trajectories_for(const std::string& task_id, std::string* err) override {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<Trajectory> out;
    auto q = query("SELECT id, task_id, candidate_hash, sample, round, kind, text, created_at FROM trajectories "
                   "WHERE task_id=$1 ORDER BY sample, round, id",
                   {task_id});
    if (!q->ok()) {
      if (err) *err = fail("cannot read the trajectories");
      return out;
    }
    for (int i = 0; i < q->rows(); ++i) {
      Trajectory t;
      t.id = std::stoll(q->text(i, 0));
      t.task_id = q->text(i, 1);
      t.candidate_hash = q->text(i, 2);
      t.sample = std::stoi(q->text(i, 3));
      t.round = std::stoi(q->text(i, 4));
      t.kind = q->text(i, 5);
      t.text = q->text(i, 6);
      t.created_at = q->text(i, 7);
      out.push_back(std::move(t));
    }
    return out;
  }

  Claim claim(const StoreKey& k, const std::string& owner, double lease_s, std::string& err) override {
    std::lock_guard<std::mutex> lock(mu_);
    Claim out = Claim::Mine;
    // The claim first, then the look-up: a put() committing meanwhile deletes the claim row this upsert waits on, so
    // the look-up (a later statement, a newer snapshot) sees its result.
    std::vector<std::optional<std::string>> p = key_params(k);
    p.push_back(owner);
    p.push_back(pg_real(lease_s));
    const bool ok = transaction([&] {
      PgResult up(conn_,
                  std::string("INSERT INTO claims(task_hash, candidate_hash, kgen_version, soc, sample, owner, "
                              "expires_at) VALUES($1, $2, $3, $4, $5, $6, ") + kPgEpochNow + " + $7::double precision) "
                  "ON CONFLICT(task_hash, candidate_hash, kgen_version, soc, sample) DO UPDATE SET "
                  "owner=excluded.owner, expires_at=excluded.expires_at WHERE claims.owner=excluded.owner OR "
                  "claims.expires_at < " + kPgEpochNow,
                  p);
      if (!up.ok()) return false;
      PgResult have(conn_, std::string("SELECT 1 FROM results WHERE ") + kPgKeyWhere, key_params(k));
      if (!have.ok()) return false;
      if (have.rows() > 0) {
        out = Claim::Done;
        PgResult del(conn_, std::string("DELETE FROM claims WHERE ") + kPgKeyWhere + " AND owner=$6",
                     {k.task_hash, k.candidate_hash, k.kgen_version, k.soc, std::to_string(k.sample), owner});
        return del.ok();
      }
      PgResult who(conn_, std::string("SELECT owner FROM claims WHERE ") + kPgKeyWhere, key_params(k));
      if (!who.ok() || who.rows() != 1) return false;
      out = who.text(0, 0) == owner ? Claim::Mine : Claim::Taken;
      return true;
    });
    if (!ok) {
      err = fail("cannot claim an evaluation");
      return Claim::Mine;
    }
    return out;
  }

  bool renew_claims(const std::string& owner, double lease_s, std::string& err) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto q = query(std::string("UPDATE claims SET expires_at = ") + kPgEpochNow +
                       " + $2::double precision WHERE owner=$1",
                   {owner, pg_real(lease_s)});
    if (!q->ok()) err = fail("cannot renew the claims of " + owner);
    return q->ok();
  }

  void release(const StoreKey& k, const std::string& owner) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto p = key_params(k);
    p.push_back(owner);
    query(std::string("DELETE FROM claims WHERE ") + kPgKeyWhere + " AND owner=$6", p);   // else it expires
  }

  std::optional<std::string> get_reply(const std::string& key, std::string* err) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto q = query("SELECT text FROM replies WHERE key=$1", {key});
    if (!q->ok()) {
      if (err) *err = fail("cannot look up a cached reply");
      return std::nullopt;
    }
    if (q->rows() == 0) return std::nullopt;
    return q->text(0, 0);
  }

  bool put_reply(const std::string& key, const std::string& text, std::string& err) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto q = query(std::string("INSERT INTO replies(key, text, created_at) VALUES($1, $2, ") + kPgNow +
                       ") ON CONFLICT(key) DO NOTHING",
                   {key, text});
    if (!q->ok()) err = fail("cannot cache a reply");
    return q->ok();
  }

  // PostgreSQL keeps its own pages consistent (WAL, checksums where initdb enabled them); what can be checked from
  // here is that every table is readable and that every results row's JSON decodes.
  std::string integrity_check() override {
    std::string err;
    std::vector<EvalResult> rows = all(&err);
    if (!err.empty()) return err;
    std::lock_guard<std::mutex> lock(mu_);
    for (const char* t : {"trajectories", "claims", "replies", "schema_version"}) {
      auto q = query(std::string("SELECT count(*) FROM ") + t, {});
      if (!q->ok()) return fail(std::string("cannot read the table ") + t);
    }
    return "ok";
  }

  // Opens the connection and creates or checks the schema.
  bool connect(const std::string& url, std::string& err) {
    conn_ = PQconnectdb(url.c_str());
    if (!conn_ || PQstatus(conn_) != CONNECTION_OK) {
      err = fail("cannot connect (is the server running, and do the URL's host, port, user, password and database "
                 "name match it?)");
      return false;
    }
    PgResult quiet(conn_, "SET client_min_messages TO warning");   // no NOTICEs for tables that already exist
    int version = 0;
    const bool ok = transaction([&] {
      PgResult lock(conn_, kPgSchemaLock);
      if (!lock.ok()) return false;
      PgResult version_table(conn_, "CREATE TABLE IF NOT EXISTS schema_version(version INTEGER NOT NULL)");
      if (!version_table.ok()) return false;
      PgResult create(conn_, store_tables_sql("id BIGSERIAL PRIMARY KEY"));
      if (!create.ok()) return false;
      PgResult v(conn_, "SELECT coalesce(max(version), 0) FROM schema_version");
      if (!v.ok() || v.rows() != 1) return false;
      version = std::stoi(v.text(0, 0));
      if (version > kSchemaVersion) return false;
      if (version < kSchemaVersion) {
        PgResult ins(conn_, "INSERT INTO schema_version(version) VALUES(" + std::to_string(kSchemaVersion) + ")");
        return ins.ok();
      }
      return true;
    });
    if (version > kSchemaVersion) {
      err = "results store " + path_ + ": schema version " + std::to_string(version) +
            " was written by a newer kgen (this one reads version " + std::to_string(kSchemaVersion) +
            "); use a newer kgen or another database";
      return false;
    }
    if (!ok) err = fail("cannot create or check the tables");
    return ok;
  }

  PGconn* conn_ = nullptr;

 private:
  // Runs f between BEGIN and COMMIT (ROLLBACK when f or the commit fails). mu_ held. A connection the server dropped
  // is reset once first, so that a restarted server costs one reconnect, not the rest of the run.
  template <class F>
  bool transaction(F f) {
    reconnect_if_dropped();
    PgResult begin(conn_, "BEGIN");
    if (!begin.ok()) return false;
    if (f()) {
      PgResult commit(conn_, "COMMIT");
      if (commit.ok()) return true;
    }
    PgResult rollback(conn_, "ROLLBACK");
    return false;
  }
  std::unique_ptr<PgResult> query(const std::string& sql, const std::vector<std::optional<std::string>>& params) {
    reconnect_if_dropped();
    return std::make_unique<PgResult>(conn_, sql, params);
  }
  void reconnect_if_dropped() {
    if (PQstatus(conn_) != CONNECTION_OK) PQreset(conn_);
  }
  std::vector<EvalResult> query_results(const char* sql, const std::vector<std::optional<std::string>>& params,
                                        std::string* err) {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<EvalResult> out;
    auto q = query(sql, params);
    if (!q->ok()) {
      if (err) *err = fail("cannot read the results");
      return out;
    }
    for (int i = 0; i < q->rows(); ++i) {
      EvalResult r;
      std::string why;
      if (!decode_result(q->text(i, 0), r, why)) {
        if (err) *err = "results store " + path_ + ": row of task '" + q->text(i, 1) + "': " + why;
        continue;
      }
      out.push_back(std::move(r));
    }
    return out;
  }
  std::string fail(const std::string& what) const {
    std::string m = "results store " + path_ + ": " + what;
    if (conn_) {
      std::string e = PQerrorMessage(conn_);
      while (!e.empty() && (e.back() == '\n' || e.back() == ' ')) e.pop_back();
      if (!e.empty()) m += ": " + e;
    }
    return m;
  }
  friend std::unique_ptr<Store> kgen::eval::open_pg_store(const std::string&, std::string&);
  std::mutex mu_;
};

}  // namespace

std::unique_ptr<Store> open_pg_store(const std::string& url, std::string& err) {
  std::unique_ptr<PgStore> st(new PgStore());
  st->path_ = Store::printable(url);
  if (!st->connect(url, err)) return nullptr;
  return st;
}

}  // namespace kgen::eval
