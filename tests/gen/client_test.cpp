// The chat client (client.h, http.h) against an in-process cpp-httplib server on loopback: replies, request bodies,
// retries, errors, timeouts, the cache and the concurrency gate.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <memory>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "gen/client.h"
#include "gen/http.h"

namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace kgen::gen;

namespace {

// A chat-completions server on 127.0.0.1:<free port>; `handler` answers request n (1-based).
class TestServer {
 public:
  using Handler = std::function<void(int n, const httplib::Request&, httplib::Response&)>;
  explicit TestServer(Handler h) : handler_(std::move(h)) {
    svr_.Post("/v1/chat/completions", [this](const httplib::Request& req, httplib::Response& res) {
      int now = ++in_flight_;
      for (int m = max_in_flight_; now > m && !max_in_flight_.compare_exchange_weak(m, now);) {
      }
      int n;
      {
        std::lock_guard<std::mutex> lk(mu_);
        n = ++hits_;
        bodies_.push_back(req.body);
        auth_.push_back(req.has_header("Authorization") ? req.get_header_value("Authorization") : "");
      }
      handler_(n, req, res);
      --in_flight_;
    });
    port_ = svr_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { svr_.listen_after_bind(); });
    for (int i = 0; i < 500 && !svr_.is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ~TestServer() {
    stopping = true;  // wakes handlers that sleep (timeouts)
    svr_.stop();
    thread_.join();
  }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  int port() const { return port_; }
  int hits() {
    std::lock_guard<std::mutex> lk(mu_);
    return hits_;
  }
  std::string body(int i) {
    std::lock_guard<std::mutex> lk(mu_);
    return bodies_.at(i);
  }
  std::string auth(int i) {
    std::lock_guard<std::mutex> lk(mu_);
    return auth_.at(i);
  }
  int max_in_flight() const { return max_in_flight_; }
  int in_flight() const { return in_flight_; }
  std::atomic<bool> stopping{false};

 private:
  Handler handler_;
  httplib::Server svr_;
  std::thread thread_;
  int port_ = 0;
  std::mutex mu_;
  int hits_ = 0;
  std::vector<std::string> bodies_, auth_;
  std::atomic<int> in_flight_{0}, max_in_flight_{0};
};

json completion(const std::string& content, long long prompt_tokens, long long completion_tokens,
                const std::string& finish = "stop") {
  return {{"id", "x"},
          {"object", "chat.completion"},
          {"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", content}}}, {"finish_reason", finish}}}},
          {"usage", {{"prompt_tokens", prompt_tokens}, {"completion_tokens", completion_tokens}}}};
}

void reply_ok(httplib::Response& res, const std::string& content, long long pt = 10, long long ct = 5) {
  res.status = 200;
  res.set_content(completion(content, pt, ct).dump(), "application/json");
}

void reply_error(httplib::Response& res, int status, const std::string& msg) {
  res.status = status;
  res.set_content(json{{"error", {{"message", msg}}}}.dump(), "application/json");
}

// Sleeps up to s seconds, or until the server shuts down.
void sleep_unless(const std::atomic<bool>& stop, double s) {
  auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(s);
  while (!stop && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

Endpoint endpoint(const std::string& base_url) {
  Endpoint ep;
  ep.name = "test";
  ep.base_url = base_url;
  ep.model = "test-model";
  ep.api_key_env = "KGEN_TEST_NO_SUCH_KEY";
  ep.timeout_s = 5;
  ep.retries = 3;
  ep.backoff_s = 0.001;  // tests never wait for real backoff
  return ep;
}

ChatRequest request(const std::string& text, const std::string& salt = "") {
  ChatRequest q;
  q.messages = {{"system", "You write AscendC kernels."}, {"user", text}};
  q.salt = salt;
  return q;
}

// A fresh directory under the test temp dir.
fs::path temp_dir(const std::string& name) {
  fs::path d = fs::path(testing::TempDir()) / ("kgen_client_test_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(d);
  return d;
}

// A loopback port nothing listens on: bound, read, closed.
int closed_port() {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
  close(s);
  return ntohs(a.sin_port);
}

std::string sha256_32(const std::string& s) {  // the documented key function, computed independently
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(s.data(), s.size(), md, &n, EVP_sha256(), nullptr);
  std::string out;
  char buf[3];
  for (unsigned i = 0; i < 16; ++i) {
    snprintf(buf, sizeof buf, "%02x", md[i]);
    out += buf;
  }
  return out;
}

}  // namespace

TEST(ChatClient, GoodReplyIsParsedWithUsageAndCost) {
  const std::string content = "```cpp\n// kernel\n```";
  const long long pt = 1200, ct = 345;
  TestServer srv([&](int, const httplib::Request&, httplib::Response& res) { reply_ok(res, content, pt, ct); });
  Endpoint ep = endpoint(srv.base_url());
  ep.usd_per_mtok_in = 0.5;
  ep.usd_per_mtok_out = 2.0;
  ChatClient client(ep, "");
  ChatReply r = client.chat(request("write add"));
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.choices.size(), 1u);
  EXPECT_EQ(r.choices[0], content);
  EXPECT_EQ(r.finish_reason, "stop");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_FALSE(r.cached);
  EXPECT_EQ(r.prompt_tokens, pt);
  EXPECT_EQ(r.completion_tokens, ct);
  EXPECT_DOUBLE_EQ(r.cost_usd, (pt * ep.usd_per_mtok_in + ct * ep.usd_per_mtok_out) / 1e6);
  EXPECT_EQ(r.cache_key, client.cache_key(request("write add")));
  Usage u = client.usage();
  EXPECT_EQ(u.requests, 1);
  EXPECT_EQ(u.prompt_tokens, pt);
  EXPECT_EQ(u.completion_tokens, ct);
  EXPECT_DOUBLE_EQ(u.cost_usd, r.cost_usd);
  EXPECT_EQ(u.failures, 0);
}

TEST(ChatClient, RequestBodyFieldsAndAuthorization) {
  TestServer srv([](int, const httplib::Request&, httplib::Response& res) { reply_ok(res, "hi"); });
  Endpoint ep = endpoint(srv.base_url() + "/");  // a trailing slash is tolerated
  ep.temperature = 0.25;
  ep.top_p = 0.5;
  ep.max_tokens = 321;
  ep.api_key_env = "KGEN_TEST_API_KEY";
  ChatClient client(ep, "");

  unsetenv("KGEN_TEST_API_KEY");
  ChatRequest q = request("first");
  ASSERT_TRUE(client.chat(q).ok);
  json b = json::parse(srv.body(0));
  EXPECT_EQ(srv.body(0), client.request_body(q));
  EXPECT_EQ(b["model"], ep.model);
  EXPECT_EQ(b["temperature"].get<double>(), ep.temperature);
  EXPECT_EQ(b["top_p"].get<double>(), ep.top_p);
  EXPECT_EQ(b["max_tokens"].get<int>(), ep.max_tokens);
  ASSERT_EQ(b["messages"].size(), q.messages.size());
  for (size_t i = 0; i < q.messages.size(); ++i) {
    EXPECT_EQ(b["messages"][i]["role"], q.messages[i].role);
    EXPECT_EQ(b["messages"][i]["content"], q.messages[i].content);
  }
  EXPECT_FALSE(b.contains("seed"));  // endpoint seed < 0: not sent
  EXPECT_FALSE(b.contains("n"));     // n == 1: not sent
  EXPECT_EQ(srv.auth(0), "");        // no key variable: no header

  setenv("KGEN_TEST_API_KEY", "sk-test-123", 1);
  ChatRequest q2 = request("second");
  q2.seed = 42;
  q2.n = 3;
  ASSERT_TRUE(client.chat(q2).ok);
  json b2 = json::parse(srv.body(1));
  EXPECT_EQ(b2["seed"].get<long long>(), q2.seed);
  EXPECT_EQ(b2["n"].get<int>(), q2.n);
  EXPECT_EQ(srv.auth(1), "Bearer sk-test-123");

  setenv("KGEN_TEST_API_KEY", "", 1);  // empty: no header either
  ASSERT_TRUE(client.chat(request("third")).ok);
  EXPECT_EQ(srv.auth(2), "");
  unsetenv("KGEN_TEST_API_KEY");

  Endpoint seeded = ep;
  seeded.seed = 7;
  EXPECT_EQ(json::parse(ChatClient(seeded, "").request_body(request("x")))["seed"].get<long long>(), seeded.seed);
}

TEST(ChatClient, CacheKeyIsSha256OfBodyAndSalt) {
  ChatClient client(endpoint("http://127.0.0.1:1/v1"), "");
  ChatRequest a = request("same", "s0"), b = request("same", "s1");
  EXPECT_EQ(client.cache_key(a), sha256_32(client.request_body(a) + "\n" + a.salt));
  EXPECT_NE(client.cache_key(a), client.cache_key(b));
  EXPECT_EQ(client.request_body(a), client.request_body(b));  // the salt is not sent
  Endpoint other = endpoint("http://elsewhere:9/v1");
  EXPECT_EQ(ChatClient(other, "").cache_key(a), client.cache_key(a));  // the base URL is not part of the key
}

TEST(ChatClient, RetriesA429HonouringRetryAfter) {
  const double retry_after = 0.15;
  TestServer srv([&](int n, const httplib::Request&, httplib::Response& res) {
    if (n == 1) {
      reply_error(res, 429, "rate limited");
      res.set_header("Retry-After", std::to_string(retry_after));
    } else {
      reply_ok(res, "after 429");
    }
  });
  ChatClient client(endpoint(srv.base_url()), "");
  ChatReply r = client.chat(request("x"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.choices[0], "after 429");
  EXPECT_EQ(r.attempts, 2);
  EXPECT_EQ(srv.hits(), 2);
  EXPECT_GE(r.seconds, retry_after);  // the server's wait, larger than the backoff, was honoured
  EXPECT_EQ(client.usage().retries, 1);
}

TEST(ChatClient, Retries503ThenSucceeds) {
  TestServer srv([](int n, const httplib::Request&, httplib::Response& res) {
    if (n <= 2) reply_error(res, 503, "overloaded");
    else reply_ok(res, "third time");
  });
  ChatClient client(endpoint(srv.base_url()), "");
  ChatReply r = client.chat(request("x"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.attempts, 3);
  EXPECT_EQ(r.choices[0], "third time");
}

TEST(ChatClient, GivesUpAfterRetriesWithTheLastError) {
  TestServer srv([](int, const httplib::Request&, httplib::Response& res) { reply_error(res, 502, "bad gateway"); });
  Endpoint ep = endpoint(srv.base_url());
  ep.retries = 2;
  ChatClient client(ep, "");
  ChatReply r = client.chat(request("x"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.attempts, ep.retries + 1);
  EXPECT_EQ(srv.hits(), ep.retries + 1);
  EXPECT_EQ(r.status, 502);
  EXPECT_NE(r.error.find("HTTP 502"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("bad gateway"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find(std::to_string(ep.retries + 1) + " attempts"), std::string::npos) << r.error;
  EXPECT_EQ(client.usage().failures, 1);
}

TEST(ChatClient, A400IsNotRetriedAndSaysWhy) {
  const std::string msg = "This model's maximum context length is 4096 tokens";
  TestServer srv([&](int, const httplib::Request&, httplib::Response& res) { reply_error(res, 400, msg); });
  ChatClient client(endpoint(srv.base_url()), "");
  ChatReply r = client.chat(request("x"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_EQ(srv.hits(), 1);
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.error.find("HTTP 400 from " + srv.base_url() + "/chat/completions"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find(msg), std::string::npos) << r.error;
}

TEST(ChatClient, A401PointsAtTheKeyVariableAndQuotesAtMost300Chars) {
  const std::string msg(1000, 'k');
  TestServer srv([&](int, const httplib::Request&, httplib::Response& res) { reply_error(res, 401, msg); });
  Endpoint ep = endpoint(srv.base_url());
  ChatClient client(ep, "");
  ChatReply r = client.chat(request("x"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_NE(r.error.find("$" + ep.api_key_env), std::string::npos) << r.error;
  EXPECT_NE(r.error.find(msg.substr(0, 300)), std::string::npos);
  EXPECT_EQ(r.error.find(msg.substr(0, 301)), std::string::npos);
}

TEST(ChatClient, MalformedJsonIsAnErrorNotRetried) {
  const std::string raw = "{\"choices\": [ this is not json";
  TestServer srv([&](int, const httplib::Request&, httplib::Response& res) {
    res.status = 200;
    res.set_content(raw, "application/json");
  });
  ChatClient client(endpoint(srv.base_url()), "");
  ChatReply r = client.chat(request("x"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_EQ(srv.hits(), 1);
  EXPECT_NE(r.error.find("malformed JSON"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find(raw), std::string::npos) << r.error;  // the body is quoted
}

TEST(ChatClient, MissingContentNamesTheField) {
  json body = {{"choices", {{{"index", 0}, {"message", {{"role", "assistant"}}}}}}};
  TestServer srv([&](int, const httplib::Request&, httplib::Response& res) {
    res.status = 200;
    res.set_content(body.dump(), "application/json");
  });
  ChatClient client(endpoint(srv.base_url()), "");
  ChatReply r = client.chat(request("x"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_NE(r.error.find("choices[0].message.content"), std::string::npos) << r.error;

  body = json{{"object", "chat.completion"}};
  r = client.chat(request("y"));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("choices[0]"), std::string::npos) << r.error;
}

TEST(ChatClient, NullContentWithReasoningIsEmpty) {
  json body = {{"choices",
                {{{"index", 0},
                  {"message", {{"role", "assistant"}, {"content", nullptr}, {"reasoning_content", "thinking..."}}},
                  {"finish_reason", "length"}}}}};
  TestServer srv([&](int, const httplib::Request&, httplib::Response& res) {
    res.status = 200;
    res.set_content(body.dump(), "application/json");
  });
  ChatClient client(endpoint(srv.base_url()), "");
  ChatReply r = client.chat(request("x"));
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.choices.size(), 1u);
  EXPECT_EQ(r.choices[0], "");
  EXPECT_EQ(r.finish_reason, "length");
  EXPECT_EQ(r.prompt_tokens, 0);  // no usage sent
}

TEST(ChatClient, TimeoutIsRetriedThenReported) {
  TestServer* self = nullptr;
  TestServer srv([&](int, const httplib::Request&, httplib::Response& res) {
    sleep_unless(self->stopping, 1.5);
    reply_ok(res, "too late");
  });
  self = &srv;
  Endpoint ep = endpoint(srv.base_url());
  ep.timeout_s = 0.3;
  ep.retries = 1;
  ChatClient client(ep, "");
  ChatReply r = client.chat(request("x"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.attempts, 2);
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.error.find("timed out"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("127.0.0.1:" + std::to_string(srv.port())), std::string::npos) << r.error;
  EXPECT_LT(r.seconds, 1.4);  // two 0.3 s attempts, not the server's 1.5 s
}

// A server that answered once and then refuses is restarting: that is retried, and not "unreachable".
TEST(ChatClient, RefusedAfterAnAnswerIsRetried) {
  auto srv = std::make_unique<TestServer>([](int, const httplib::Request&, httplib::Response& res) { reply_ok(res, "hi"); });
  Endpoint ep = endpoint(srv->base_url());
  ep.retries = 1;
  ChatClient client(ep, "");
  ASSERT_TRUE(client.chat(request("first")).ok);
  srv.reset();   // the port is closed now
  ChatReply r = client.chat(request("second"));
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.unreachable);
  EXPECT_EQ(r.attempts, 2);
  EXPECT_NE(r.error.find("connection refused"), std::string::npos) << r.error;
}

TEST(ChatClient, ConnectionRefusedIsPrecise) {
  int port = closed_port();
  Endpoint ep = endpoint("http://127.0.0.1:" + std::to_string(port) + "/v1");
  ep.retries = 1;
  ChatClient client(ep, "");
  ChatReply r = client.chat(request("x"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.attempts, 1);  // nothing ever answered there: not retried, the endpoint named
  EXPECT_TRUE(r.unreachable);
  EXPECT_NE(r.error.find("connection refused"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("127.0.0.1:" + std::to_string(port)), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("not retried"), std::string::npos) << r.error;

  HttpResponse h = http_post_json("http://127.0.0.1:" + std::to_string(port) + "/x", {}, "{}", 1);
  EXPECT_EQ(h.status, 0);
  EXPECT_FALSE(h.timed_out);
  EXPECT_FALSE(h.error.empty());
}

TEST(ChatClient, CacheServesIdenticalRequestsWithoutTheServer) {
  fs::path dir = temp_dir("cache");
  TestServer srv([](int n, const httplib::Request&, httplib::Response& res) {
    reply_ok(res, "reply " + std::to_string(n), 100, 50);
  });
  ChatClient client(endpoint(srv.base_url()), dir.string());
  ChatReply first = client.chat(request("cache me", "s0"));
  ASSERT_TRUE(first.ok) << first.error;
  EXPECT_EQ(srv.hits(), 1);
  fs::path entry = dir / (first.cache_key + ".json");
  ASSERT_TRUE(fs::exists(entry));
  std::ifstream in(entry);
  json stored = json::parse(in);
  EXPECT_EQ(stored["request"], json::parse(client.request_body(request("cache me", "s0"))));
  EXPECT_EQ(stored["reply"]["choices"][0], first.choices[0]);

  // A new client (a rerun) on the same directory: served from the cache.
  ChatClient rerun(endpoint(srv.base_url()), dir.string());
  ChatReply second = rerun.chat(request("cache me", "s0"));
  ASSERT_TRUE(second.ok) << second.error;
  EXPECT_TRUE(second.cached);
  EXPECT_EQ(second.attempts, 0);
  EXPECT_EQ(second.choices, first.choices);
  EXPECT_EQ(second.cost_usd, 0);
  EXPECT_EQ(srv.hits(), 1);
  EXPECT_EQ(rerun.usage().cached, 1);
  EXPECT_EQ(rerun.usage().requests, 0);

  // Another salt (another sample) misses.
  ChatReply third = rerun.chat(request("cache me", "s1"));
  ASSERT_TRUE(third.ok);
  EXPECT_FALSE(third.cached);
  EXPECT_EQ(srv.hits(), 2);
  EXPECT_NE(third.cache_key, first.cache_key);

  // An unreadable entry is ignored and overwritten.
  { std::ofstream(entry, std::ios::trunc) << "garbage"; }
  ChatReply fourth = rerun.chat(request("cache me", "s0"));
  ASSERT_TRUE(fourth.ok);
  EXPECT_FALSE(fourth.cached);
  EXPECT_EQ(srv.hits(), 3);
  std::ifstream in2(entry);
  EXPECT_TRUE(json::accept(in2));
  fs::remove_all(dir);
}

TEST(ChatClient, FailuresAreNotCached) {
  fs::path dir = temp_dir("nocache");
  TestServer srv([](int n, const httplib::Request&, httplib::Response& res) {
    if (n == 1) reply_error(res, 400, "no");
    else reply_ok(res, "yes");
  });
  ChatClient client(endpoint(srv.base_url()), dir.string());
  EXPECT_FALSE(client.chat(request("x")).ok);
  ChatReply r = client.chat(request("x"));
  EXPECT_TRUE(r.ok);
  EXPECT_FALSE(r.cached);
  EXPECT_EQ(srv.hits(), 2);
  fs::remove_all(dir);
}

// Each request waits until a second one is in flight (or `wait`): with concurrency 1 none ever is.
void run_two_concurrent(int concurrency, std::chrono::milliseconds wait, int& max_seen) {
  TestServer* self = nullptr;
  TestServer srv([&](int, const httplib::Request&, httplib::Response& res) {
    auto until = std::chrono::steady_clock::now() + wait;
    while (self->in_flight() < 2 && std::chrono::steady_clock::now() < until && !self->stopping)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    reply_ok(res, "ok");
  });
  self = &srv;
  Endpoint ep = endpoint(srv.base_url());
  ep.concurrency = concurrency;
  ChatClient client(ep, "");
  std::vector<std::thread> ts;
  std::atomic<int> ok{0};
  for (int i = 0; i < 2; ++i)
    ts.emplace_back([&, i] { ok += client.chat(request("x", std::to_string(i))).ok ? 1 : 0; });
  for (auto& t : ts) t.join();
  EXPECT_EQ(ok, 2);
  max_seen = srv.max_in_flight();
}

TEST(ChatClient, ConcurrencyGateBoundsRequestsInFlight) {
  int one = 0, two = 0;
  run_two_concurrent(1, std::chrono::milliseconds(150), one);
  EXPECT_EQ(one, 1);
  // The same with room for both shows that the server could see two (the wait ends as soon as both are in).
  run_two_concurrent(2, std::chrono::milliseconds(3000), two);
  EXPECT_EQ(two, 2);
}

TEST(ChatClient, ANonHttpBaseUrlIsNotRetried) {
  Endpoint ep = endpoint("127.0.0.1:8000/v1");  // the scheme forgotten
  ChatReply r = ChatClient(ep, "").chat(request("x"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.attempts, 0);
  EXPECT_NE(r.error.find(ep.base_url), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("http://"), std::string::npos) << r.error;
}

TEST(ChatClient, MissingBaseUrlIsAnError) {
  Endpoint ep = endpoint("");
  ChatClient client(ep, "");
  ChatReply r = client.chat(request("x"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.attempts, 0);
  EXPECT_NE(r.error.find("base URL"), std::string::npos) << r.error;
}
