// libcurl transport of the chat client: one POST, one easy handle, precise transport errors.
#include "gen/http.h"

#include <curl/curl.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <mutex>

namespace kgen::gen {
namespace {

// curl_global_init is not thread-safe; the client calls us from several threads, so initialise once.
void global_init_once() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

size_t on_body(char* data, size_t size, size_t n, void* user) {
  static_cast<std::string*>(user)->append(data, size * n);
  return size * n;
}

std::string trim_whitespace(std::string s) {
  auto not_space = [](unsigned char c) { return !std::isspace(c); };
  s.erase(s.begin(), std::find_if(s.begin(), s.end(), not_space));
  s.erase(std::find_if(s.rbegin(), s.rend(), not_space).base(), s.end());
  return s;
}

// Called once per header line; keeps the Retry-After value of the last response (curl reports the headers of every
// response, e.g. of a 100 Continue, so a later status line resets it).
size_t on_header(char* data, size_t size, size_t n, void* user) {
  auto* retry_after = static_cast<double*>(user);
  std::string line(data, size * n);
  if (line.rfind("HTTP/", 0) == 0) *retry_after = -1;
  auto colon = line.find(':');
  if (colon == std::string::npos) return size * n;
  std::string name = line.substr(0, colon);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  if (name != "retry-after") return size * n;
  // Only the delta-seconds form; an HTTP date is ignored (the client's own backoff applies then).
  std::string value = trim_whitespace(line.substr(colon + 1));
  char* end = nullptr;
  double s = std::strtod(value.c_str(), &end);
  if (!value.empty() && end && *end == '\0' && std::isfinite(s) && s >= 0) *retry_after = s;
  return size * n;
}

// "host:port" of the URL for error messages (the scheme's default port when none is given).
std::string host_port(const std::string& url) {
  std::string rest = url;
  std::string default_port = "80";
  if (auto p = rest.find("://"); p != std::string::npos) {
    if (rest.compare(0, p, "https") == 0) default_port = "443";
    rest = rest.substr(p + 3);
  }
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (auto at = rest.rfind('@'); at != std::string::npos) rest = rest.substr(at + 1);  // user:pass@
  bool has_port = false;
  if (!rest.empty() && rest[0] == '[') has_port = rest.find("]:") != std::string::npos;  // [::1]:8000
  else has_port = rest.find(':') != std::string::npos;
  return has_port ? rest : rest + ":" + default_port;
}

std::string transport_error(CURLcode rc, const std::string& url, double timeout_s, const char* detail) {
  std::string where = host_port(url);
  std::string extra = detail && *detail ? fmt::format(" ({})", detail) : "";
  switch (rc) {
    // curl's own text adds nothing to these three.
    case CURLE_COULDNT_CONNECT:
      return fmt::format("connection refused to {}: is the server running and listening there?", where);
    case CURLE_COULDNT_RESOLVE_HOST:
      return fmt::format("cannot resolve the host of {}: check the base URL", where);
    case CURLE_OPERATION_TIMEDOUT:
      return fmt::format("timed out after {:g} s waiting for {}", timeout_s, where);
    case CURLE_URL_MALFORMAT:
    case CURLE_UNSUPPORTED_PROTOCOL:
      return fmt::format("malformed URL '{}': {}{}", url, curl_easy_strerror(rc), extra);
    default:
      return fmt::format("{} ({}){}", curl_easy_strerror(rc), where, extra);
  }
}

long to_ms(double s) { return s <= 0 ? 0L : std::max(1L, static_cast<long>(std::llround(s * 1000))); }

}  // namespace

HttpResponse http_post_json(const std::string& url, const std::vector<std::string>& headers, const std::string& body,
                            double timeout_s, double connect_timeout_s) {
  global_init_once();
  HttpResponse r;
  CURL* h = curl_easy_init();
  if (!h) {
    r.error = "libcurl could not create a handle (out of memory?)";
    return r;
  }
  curl_slist* list = curl_slist_append(nullptr, "Content-Type: application/json");
  // An empty "Expect:" stops curl from waiting for a 100 Continue on large prompts (some servers never send one).
  list = curl_slist_append(list, "Expect:");
  for (const auto& hd : headers) list = curl_slist_append(list, hd.c_str());
  char errbuf[CURL_ERROR_SIZE] = {0};

  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);  // no SIGALRM for timeouts: we run on many threads
  curl_easy_setopt(h, CURLOPT_POST, 1L);
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, to_ms(timeout_s));
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, to_ms(connect_timeout_s));
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &r.body);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &r.retry_after_s);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");  // whatever curl can decode
  curl_easy_setopt(h, CURLOPT_USERAGENT, "kgen/" KGEN_VERSION);

  CURLcode rc = curl_easy_perform(h);
  if (rc == CURLE_OK) {
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    r.status = static_cast<int>(status);
  } else {
    r.timed_out = rc == CURLE_OPERATION_TIMEDOUT;
    r.unreachable = rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST;
    r.error = transport_error(rc, url, timeout_s, errbuf);
    r.body.clear();
    r.retry_after_s = -1;
  }
  curl_slist_free_all(list);
  curl_easy_cleanup(h);
  return r;
}

}  // namespace kgen::gen
