// The OpenAI-compatible chat client: request body, cache, retries with backoff, concurrency gate, accounting.
#include "gen/client.h"

#include "eval/store.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "gen/http.h"
#include "sandbox/digest.h"

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace kgen::gen {
namespace {

constexpr double kMaxWaitS = 60;  // a single backoff wait never exceeds this, whatever Retry-After says


std::string head(const std::string& s, size_t n) { return s.size() <= n ? s : s.substr(0, n) + "..."; }

std::string chat_url(const std::string& base_url) {
  std::string u = base_url;
  while (!u.empty() && u.back() == '/') u.pop_back();
  const std::string tail = "/chat/completions";
  if (u.size() >= tail.size() && u.compare(u.size() - tail.size(), tail.size(), tail) == 0) return u;
  return u + tail;
}

// The server's own explanation of an error: OpenAI's {"error":{"message":...}}, {"error":"..."}, FastAPI's
// {"detail":...}, {"message":...}; else the body itself. At most 300 characters.
std::string server_message(const std::string& body) {
  json j = json::parse(body, nullptr, false);
  std::string msg;
  if (j.is_object()) {
    if (j.contains("error") && j["error"].is_object() && j["error"].contains("message") &&
        j["error"]["message"].is_string())
      msg = j["error"]["message"].get<std::string>();
    else if (j.contains("error") && j["error"].is_string())
      msg = j["error"].get<std::string>();
    else if (j.contains("detail"))
      msg = j["detail"].is_string() ? j["detail"].get<std::string>() : j["detail"].dump();
    else if (j.contains("message") && j["message"].is_string())
      msg = j["message"].get<std::string>();
  }
  if (msg.empty()) msg = body;
  if (msg.empty()) msg = "(empty body)";
  return head(msg, 300);
}

// What to do about a 4xx that retrying cannot fix.
std::string client_error_hint(int status, const Endpoint& ep) {
  if (status == 401 || status == 403) {
    const char* key = std::getenv(ep.api_key_env.c_str());
    bool set = key && *key;
    return fmt::format(" — check the API key in ${}{}", ep.api_key_env,
                       set ? "" : " (it is not set; export it, or set api_key_env in kgen.toml)");
  }
  if (status == 404)
    return fmt::format(" — check the base URL (OpenAI-compatible servers serve /v1/chat/completions, so it usually "
                       "ends in /v1) and the model name '{}'",
                       ep.model);
  if (status == 400 || status == 422)
    return fmt::format(" — the server rejected the request: check the model name '{}' and max_tokens {} (it must fit "
                       "the model's context)",
                       ep.model, ep.max_tokens);
  return "";
}

// message.content: a string, null (a reasoning model that produced no answer: ""), or a list of text parts.
bool content_text(const json& content, std::string& out) {
  if (content.is_null()) {
    out.clear();
    return true;
  }
  if (content.is_string()) {
    out = content.get<std::string>();
    return true;
  }
  if (content.is_array()) {
    out.clear();
    for (const auto& part : content) {
      if (part.is_string()) out += part.get<std::string>();
      else if (part.is_object() && part.contains("text") && part["text"].is_string()) out += part["text"].get<std::string>();
    }
    return true;
  }
  return false;
}

// Fills choices, finish_reason and tokens of r from a 200 body; false with r.error when the body is not a chat
// completion (a server bug: not retried).
bool parse_completion(const std::string& body, const std::string& url, ChatReply& r) {
  json j;
  try {
    j = json::parse(body);
  } catch (const json::parse_error& e) {
    r.error = fmt::format("malformed JSON in the reply body from {}: {}; the body starts: '{}'", url, e.what(),
                          head(body, 200));
    return false;
  }
  auto missing = [&](const std::string& field) {
    std::string carried;
    if (j.is_object() && j.contains("error")) carried = fmt::format(" (the server reported: {})", server_message(body));
    r.error = fmt::format("the reply from {} has no {}{}; the body starts: '{}'", url, field, carried, head(body, 200));
    return false;
  };
  if (!j.is_object() || !j.contains("choices") || !j["choices"].is_array() || j["choices"].empty())
    return missing("choices[0]");
  const json& choices = j["choices"];
  for (size_t i = 0; i < choices.size(); ++i) {
    const json& c = choices[i];
    std::string where = fmt::format("choices[{}]", i);
    if (!c.is_object() || !c.contains("message") || !c["message"].is_object()) return missing(where + ".message");
    const json& m = c["message"];  // "reasoning_content" and other extras are ignored
    if (!m.contains("content")) return missing(where + ".message.content");
    std::string text;
    if (!content_text(m["content"], text))
      return missing(where + ".message.content as a string (it is " + std::string(m["content"].type_name()) + ")");
    r.choices.push_back(std::move(text));
  }
  if (choices[0].contains("finish_reason") && choices[0]["finish_reason"].is_string())
    r.finish_reason = choices[0]["finish_reason"].get<std::string>();
  if (j.contains("usage") && j["usage"].is_object()) {
    const json& u = j["usage"];
    if (u.contains("prompt_tokens") && u["prompt_tokens"].is_number()) r.prompt_tokens = u["prompt_tokens"].get<long long>();
    if (u.contains("completion_tokens") && u["completion_tokens"].is_number())
      r.completion_tokens = u["completion_tokens"].get<long long>();
  }
  return true;
}

// A cache entry's reply when it parses and was made for exactly this request body.
bool parse_cache_entry(const std::string& text, const std::string& body, ChatReply& r) {
  json j = json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("request") || !j.contains("reply") || j["request"] != json::parse(body, nullptr, false))
    return false;
  const json& rep = j["reply"];
  if (!rep.is_object() || !rep.contains("choices") || !rep["choices"].is_array() || rep["choices"].empty()) return false;
  std::vector<std::string> choices;
  for (const auto& c : rep["choices"]) {
    if (!c.is_string()) return false;
    choices.push_back(c.get<std::string>());
  }
  r.choices = std::move(choices);
  r.finish_reason = rep.value("finish_reason", "");
  return true;
}

bool read_cache(const fs::path& file, const std::string& body, ChatReply& r) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_cache_entry(ss.str(), body, r);
}

json cache_entry(const std::string& body, const ChatReply& r) {
  return {{"request", json::parse(body)},
          {"reply",
           {{"choices", r.choices},
            {"finish_reason", r.finish_reason},
            {"usage", {{"prompt_tokens", r.prompt_tokens}, {"completion_tokens", r.completion_tokens}}}}}};
}

void write_cache(const fs::path& dir, const std::string& key, const std::string& body, const ChatReply& r) {
  const json entry = cache_entry(body, r);
  std::error_code ec;
  fs::create_directories(dir, ec);
  // A unique temporary name, then rename: a concurrent reader sees the old entry or the whole new one.
  static std::atomic<unsigned long> counter{0};
  fs::path tmp = dir / fmt::format(".{}.{}.{}.tmp", key, ::getpid(), counter++);
  fs::path dst = dir / (key + ".json");
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << entry.dump(1) << "\n";
    out.close();
    if (!out) ec = std::make_error_code(std::errc::io_error);
  }
  if (!ec) fs::rename(tmp, dst, ec);
  if (ec) {
    fs::remove(tmp, ec);
    // The reply is still good; say once that reruns will not be free.
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true))
      std::cerr << fmt::format("warning: cannot write the reply cache in {} ({}); replies are not cached\n",
                               dir.string(), ec.message());
  }
}

void wait_s(double s) {
  if (s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(std::min(s, kMaxWaitS)));
}

}  // namespace

json messages_json(const std::vector<ChatMessage>& messages) {
  json a = json::array();
  for (const auto& m : messages) a.push_back({{"role", m.role}, {"content", m.content}});
  return a;
}

ChatClient::ChatClient(Endpoint ep, std::string cache_dir) : ep_(std::move(ep)), cache_dir_(std::move(cache_dir)) {}

std::string ChatClient::request_body(const ChatRequest& q) const {
  json body = {{"model", ep_.model},
               {"messages", messages_json(q.messages)},
               {"temperature", ep_.temperature},
               {"top_p", ep_.top_p},
               {"max_tokens", ep_.max_tokens}};
  if (q.n > 1) body["n"] = q.n;
  long long seed = q.seed >= 0 ? q.seed : ep_.seed;
  if (seed >= 0) body["seed"] = seed;
  return body.dump();  // nlohmann's objects sort their keys: the dump is canonical
}

std::string ChatClient::cache_key(const ChatRequest& q) const { return sha256_hex(request_body(q) + "\n" + q.salt, 32); }

Usage ChatClient::usage() const {
  std::lock_guard<std::mutex> lk(mu_);
  return usage_;
}

ChatReply ChatClient::chat(const ChatRequest& q) {
  auto t0 = std::chrono::steady_clock::now();
  ChatReply r;
  const std::string body = request_body(q);
  r.cache_key = sha256_hex(body + "\n" + q.salt, 32);
  auto finish = [&](ChatReply& rep) -> ChatReply {
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::lock_guard<std::mutex> lk(mu_);
    usage_.requests += rep.attempts;
    usage_.retries += std::max(0, rep.attempts - 1);
    if (rep.cached) ++usage_.cached;
    if (!rep.ok) ++usage_.failures;
    if (rep.ok) ++usage_.replies;
    usage_.prompt_tokens += rep.prompt_tokens;
    usage_.completion_tokens += rep.completion_tokens;
    usage_.cost_usd += rep.cost_usd;
    return rep;
  };

  // A cached reply costs nothing: it reports 0 tokens and 0 USD (the entry keeps the original usage).
  eval::Store* const shared = store_cache_.load();
  if (shared) {
    if (auto text = shared->get_reply(r.cache_key); text && parse_cache_entry(*text, body, r)) {
      r.ok = r.cached = true;
      return finish(r);
    }
  } else if (!cache_dir_.empty() && read_cache(fs::path(cache_dir_) / (r.cache_key + ".json"), body, r)) {
    r.ok = r.cached = true;
    return finish(r);
  }
  if (ep_.base_url.empty()) {
    r.error = fmt::format("no base URL for model '{}': set base_url in kgen.toml or pass --base-url", ep_.model);
    return finish(r);
  }

  const std::string url = chat_url(ep_.base_url);
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0) {  // retrying cannot fix this
    r.error = fmt::format("the base URL '{}' of model '{}' is not an http:// or https:// URL, e.g. "
                          "http://127.0.0.1:8000/v1",
                          ep_.base_url, ep_.model);
    return finish(r);
  }
  std::vector<std::string> headers;
  if (const char* key = std::getenv(ep_.api_key_env.c_str()); key && *key)
    headers.push_back(std::string("Authorization: Bearer ") + key);

  std::string last_error;
  const int max_attempts = 1 + std::max(0, ep_.retries);
  for (int i = 0; i < max_attempts; ++i) {
    HttpResponse h;
    {
      // The gate bounds requests in flight, not backoff waits: a waiting retry does not hold a slot.
      std::unique_lock<std::mutex> lk(mu_);
      cv_.wait(lk, [&] { return in_flight_ < std::max(1, ep_.concurrency); });
      ++in_flight_;
      lk.unlock();
      h = http_post_json(url, headers, body, ep_.timeout_s);
      lk.lock();
      --in_flight_;
      if (h.status != 0) answered_ = true;
      r.unreachable = h.unreachable && !answered_;
      cv_.notify_one();
    }
    ++r.attempts;
    r.status = h.status;
    if (r.unreachable) {   // a server that was never there: retrying for a minute will not start it
      r.error = fmt::format("{} (model '{}', base URL {}; not retried: no request to it has been answered)", h.error,
                            ep_.model, ep_.base_url);
      break;
    }
    if (h.status >= 200 && h.status < 300) {
      r.ok = parse_completion(h.body, url, r);
      if (!r.ok) r.choices.clear();
      break;
    }
    bool retryable = h.status == 0 || h.status == 429 || (h.status >= 500 && h.status <= 599);
    last_error = h.status == 0 ? h.error : fmt::format("HTTP {} from {}: {}", h.status, url, server_message(h.body));
    if (!retryable) {
      r.error = last_error + client_error_hint(h.status, ep_);
      break;
    }
    if (i + 1 < max_attempts) wait_s(std::max(ep_.backoff_s * std::pow(2.0, i), h.retry_after_s));
    else r.error = fmt::format("{} ({} attempt{})", last_error, r.attempts, r.attempts == 1 ? "" : "s");
  }
  if (r.ok) {
    r.cost_usd = (r.prompt_tokens * ep_.usd_per_mtok_in + r.completion_tokens * ep_.usd_per_mtok_out) / 1e6;
    if (shared) {
      std::string err;
      if (!shared->put_reply(r.cache_key, cache_entry(body, r).dump(), err)) {
        static std::atomic<bool> warned{false};
        if (!warned.exchange(true)) std::cerr << "warning: " << err << "; replies are not cached\n";
      }
    } else if (!cache_dir_.empty()) {
      write_cache(cache_dir_, r.cache_key, body, r);
    }
  }
  return finish(r);
}

std::string usage_line(const Usage& u) {
  const long long replies = u.replies;
  return fmt::format("model: {} repl{} ({} from the cache), {} request{} sent ({} retr{}, {} failed), {} prompt + {} "
                     "completion tokens{}",
                     replies, replies == 1 ? "y" : "ies", u.cached, u.requests, u.requests == 1 ? "" : "s", u.retries,
                     u.retries == 1 ? "y" : "ies", u.failures, u.prompt_tokens, u.completion_tokens,
                     u.cost_usd > 0 ? fmt::format(", ${:.4f}", u.cost_usd) : "");
}
}  // namespace kgen::gen
