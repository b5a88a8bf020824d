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
