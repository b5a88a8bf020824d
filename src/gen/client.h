// An OpenAI-compatible chat-completions client (POST {base_url}/chat/completions): vLLM, SGLang, llama.cpp's server,
// Ollama, DeepSeek, OpenAI. Retries 429, 5xx and dropped connections with exponential backoff (honouring
// Retry-After), bounds concurrent requests, counts tokens and cost, and keeps a content-addressed cache of replies
// on disk so that a rerun is reproducible and costs nothing.
//
// Cache: CACHE_DIR/<key>.json where key = SHA-256 (32 hex digits) of the canonical request (model, messages, temperature,
// top_p, max_tokens, n, seed, and ChatRequest::salt). The base URL and the API key are not part of the key: the same
// model served elsewhere gives a reply from the same distribution. Entries are written atomically (temp + rename);
// an unreadable entry is ignored (and overwritten). Only successful replies are cached.
#pragma once
#include <atomic>
#include <nlohmann/json_fwd.hpp>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

namespace kgen::eval { class Store; }

namespace kgen::gen {

// One model endpoint, from kgen.toml (config.h) or the command line.
struct Endpoint {
  std::string name;                                 // the config table's name ("qwen"), or the model for ad-hoc use
  std::string base_url;                             // "http://127.0.0.1:8000/v1" (".../chat/completions" appended)
  std::string model;                                // the served model's name, sent as "model"
  std::string api_key_env = "OPENAI_API_KEY";       // environment variable holding the key; unset/empty: no header
  double temperature = 0.8, top_p = 0.95;
  int max_tokens = 8192;
  long long seed = -1;                              // < 0: not sent
  double timeout_s = 600;                           // one request, whole exchange
  int retries = 4;                                  // extra attempts after the first, on 429/5xx/transport errors
  double backoff_s = 2;                             // first wait; doubles each retry (Retry-After wins when larger)
  int concurrency = 4;                              // requests in flight at once through one client
  double usd_per_mtok_in = 0, usd_per_mtok_out = 0; // cost accounting (0: free / unknown)
  int context_tokens = 0;                           // the model's context window (0: large or unknown); below 32768
                                                    // the tile prompt carries a compact language reference (prompt.h)
};

struct ChatMessage {
  std::string role;                                 // "system", "user", "assistant"
  std::string content;
};
// [{"role", "content"}, ...]: the messages as the OpenAI chat API and the training layouts write them.
nlohmann::json messages_json(const std::vector<ChatMessage>& messages);

struct ChatRequest {
  std::vector<ChatMessage> messages;
  int n = 1;                                        // choices wanted (servers that ignore n return one)
  std::string salt;                                 // extra cache-key text: the sample index, so that k samples of
                                                    // one prompt are k different cache entries
  long long seed = -1;                              // overrides Endpoint::seed when >= 0 (sample k: seed + k)
};

struct ChatReply {
  bool ok = false;
  std::vector<std::string> choices;                 // message.content of each choice
  std::string finish_reason;                        // of the first choice ("stop", "length", ...)
  std::string error;                                // when !ok, precise: "HTTP 401 from http://...: <server text>",
                                                    // "malformed JSON in the reply body: ...", "timed out after 600 s
                                                    // (5 attempts)", "the reply has no choices[0].message.content"
  int status = 0;                                   // last HTTP status (0: none)
  int attempts = 0;                                 // requests made (0 when served from the cache)
  bool cached = false;
  bool unreachable = false;                         // nothing listens at the endpoint and none of this client's
                                                    // requests has ever been answered: not retried, and no use
                                                    // asking again (a generation stops here)
  long long prompt_tokens = 0, completion_tokens = 0;   // from "usage" (0 when the server sends none)
  double cost_usd = 0;
  double seconds = 0;                               // wall time including backoff waits
  std::string cache_key;
};

struct Usage {                                      // totals over a client's life (cached replies count 0 tokens)
  long long replies = 0;                           // successful chat() calls, cached ones included
  long long requests = 0, cached = 0, retries = 0, failures = 0;   // HTTP requests sent (retries included), ...
  long long prompt_tokens = 0, completion_tokens = 0;
  double cost_usd = 0;
};

// "model: 3 replies (1 from the cache), 2 requests sent (1 retry, 0 failed), 812 prompt + 640 completion tokens,
// $0.0012" — the line `kgen generate` and `kgen bench` end with.
std::string usage_line(const Usage& u);

class ChatClient {
 public:
  // cache_dir empty: no cache. The directory is created on first write.
  ChatClient(Endpoint ep, std::string cache_dir);
  const Endpoint& endpoint() const { return ep_; }
  // Thread-safe; blocks while `concurrency` requests are in flight. Never throws.
  ChatReply chat(const ChatRequest& q);
  Usage usage() const;
  // The request body chat() would POST (also what the cache key hashes).
  std::string request_body(const ChatRequest& q) const;
  std::string cache_key(const ChatRequest& q) const;
  // Replies cached in a shared results store (a PostgreSQL one, so that hosts sharing it share replies) instead of
  // the cache folder; the same entries. Thread-safe; the store outlives the client's use of it.
  void use_store_cache(eval::Store* store) { store_cache_.store(store); }

 private:
  Endpoint ep_;
  std::string cache_dir_;
  std::atomic<eval::Store*> store_cache_{nullptr};
  mutable std::mutex mu_;
  std::condition_variable cv_;
  int in_flight_ = 0;
  bool answered_ = false;   // some request of this client got an HTTP response
  Usage usage_;
};
}  // namespace kgen::gen
