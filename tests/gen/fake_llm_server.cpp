// kgen-fake-llm: a scripted OpenAI-compatible chat-completions server on 127.0.0.1, for end-to-end tests of
// `kgen generate` and `kgen bench --generator llm:` (tests/generate_test.sh).
//
//   kgen-fake-llm --script FILE --log FILE --port-file FILE [--port N] [--idle-exit S]
//
// The script is a JSON array of steps, consumed in order: a request takes the first step whose "times" (default 1;
// -1 = unlimited) is not used up and whose optional "match" substring occurs in the request's last user message.
// Step fields: "content" (the assistant's message), "status" (default 200), "raw" (a body sent as-is), "delay_s",
// "retry_after" (the Retry-After header). Each request is logged as one JSON line {"n", "step", "body"}.
#include <httplib.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using json = nlohmann::json;

namespace {

struct Step {
  std::string content, raw, match, retry_after;
  bool has_raw = false, has_match = false;
  int status = 200;
  long long times = 1, used = 0;  // times -1: unlimited
  double delay_s = 0;
};

struct Args {
  std::string script, log, port_file;
  int port = 0;
  double idle_exit_s = 600;
};

int signal_pipe[2] = {-1, -1};
std::atomic<bool> stopping{false};

void on_signal(int) {
  char c = 1;
  [[maybe_unused]] ssize_t n = write(signal_pipe[1], &c, 1);  // the only async-signal-safe way out
}

[[noreturn]] void die(const std::string& msg, int code = 2) {
  std::cerr << "kgen-fake-llm: " << msg << "\n";
  std::exit(code);
}

Args parse_args(int argc, char** argv) {
  Args a;
  auto need = [&](int& i) -> std::string {
    if (i + 1 >= argc) die(std::string(argv[i]) + " needs a value");
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    std::string k = argv[i];
    if (k == "--script") a.script = need(i);
    else if (k == "--log") a.log = need(i);
    else if (k == "--port-file") a.port_file = need(i);
    else if (k == "--port") a.port = std::atoi(need(i).c_str());
    else if (k == "--idle-exit") a.idle_exit_s = std::atof(need(i).c_str());
    else die("unknown argument '" + k + "'; usage: kgen-fake-llm --script FILE --log FILE --port-file FILE [--port N] "
             "[--idle-exit S]");
  }
  if (a.script.empty() || a.log.empty() || a.port_file.empty())
    die("usage: kgen-fake-llm --script FILE --log FILE --port-file FILE [--port N] [--idle-exit S]");
  return a;
}

std::vector<Step> load_script(const std::string& path) {
  std::ifstream in(path);
  if (!in) die("cannot read the script " + path + ": " + std::strerror(errno));
  std::stringstream ss;
  ss << in.rdbuf();
  json j;
  try {
    j = json::parse(ss.str());
  } catch (const json::parse_error& e) {
    die("the script " + path + " is not JSON: " + e.what());
  }
  if (!j.is_array()) die("the script " + path + " must be a JSON array of steps");
  std::vector<Step> steps;
  for (size_t i = 0; i < j.size(); ++i) {
    const json& s = j[i];
    auto bad = [&](const std::string& why) { die("the script " + path + ", step " + std::to_string(i) + ": " + why); };
    if (!s.is_object()) bad("a step is a JSON object");
    Step st;
    for (auto it = s.begin(); it != s.end(); ++it) {
      const std::string& k = it.key();
      const json& v = it.value();
      if (k == "content" && v.is_string()) st.content = v.get<std::string>();
      else if (k == "raw" && v.is_string()) st.raw = v.get<std::string>(), st.has_raw = true;
      else if (k == "match" && v.is_string()) st.match = v.get<std::string>(), st.has_match = true;
      else if (k == "status" && v.is_number_integer()) st.status = v.get<int>();
      else if (k == "times" && v.is_number_integer()) st.times = v.get<long long>();
      else if (k == "delay_s" && v.is_number()) st.delay_s = v.get<double>();
      else if (k == "retry_after") st.retry_after = v.is_string() ? v.get<std::string>() : v.dump();
      else if (k == "comment") continue;
      else bad("unknown field or wrong type: \"" + k + "\": " + v.dump() +
               " (fields: content, raw, match: strings; status, times: integers; delay_s: number; retry_after)");
    }
    steps.push_back(st);
  }
  return steps;
}

void write_port_file(const std::string& path, int port) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << port << "\n";
    if (!out) die("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) die("cannot rename " + tmp + " to " + path + ": " + std::strerror(errno));
}

std::string last_user_message(const json& body) {
  if (!body.is_object() || !body.contains("messages") || !body["messages"].is_array()) return "";
  const json& ms = body["messages"];
  for (auto it = ms.rbegin(); it != ms.rend(); ++it)
    if (it->is_object() && it->value("role", "") == "user" && it->contains("content") && (*it)["content"].is_string())
      return (*it)["content"].get<std::string>();
  return "";
}

long long message_chars(const json& body) {
  long long n = 0;
  if (body.is_object() && body.contains("messages") && body["messages"].is_array())
    for (const auto& m : body["messages"])
      if (m.is_object() && m.contains("content") && m["content"].is_string()) n += m["content"].get<std::string>().size();
  return n;
}

json completion(const json& body, const std::string& content, long long n_request) {
  int n = body.is_object() && body.contains("n") && body["n"].is_number_integer() ? std::max(1, body["n"].get<int>()) : 1;
  json choices = json::array();
  for (int i = 0; i < n; ++i)
    choices.push_back({{"index", i},
                       {"message", {{"role", "assistant"}, {"content", content}}},
                       {"finish_reason", "stop"}});
  long long prompt = message_chars(body) / 4;
  long long completion_tokens = static_cast<long long>(content.size()) / 4 * n;
  return {{"id", "chatcmpl-fake-" + std::to_string(n_request)},
          {"object", "chat.completion"},
          {"created", static_cast<long long>(std::time(nullptr))},
          {"model", body.is_object() ? body.value("model", "fake") : "fake"},
          {"choices", choices},
          {"usage",
           {{"prompt_tokens", prompt},
            {"completion_tokens", completion_tokens},
            {"total_tokens", prompt + completion_tokens}}}};
}

// Sleeps up to s seconds, waking early when the server is stopping.
void interruptible_sleep(double s) {
  auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(s);
  while (!stopping && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

}  // namespace

int main(int argc, char** argv) {
  Args args = parse_args(argc, argv);
  std::vector<Step> steps = load_script(args.script);
  std::FILE* log = std::fopen(args.log.c_str(), "a");
  if (!log) die("cannot open the log " + args.log + ": " + std::strerror(errno));

  std::mutex mu;  // guards steps, the request counter and the log
  long long n_requests = 0;
  std::atomic<long long> last_activity_ms{0};
  std::atomic<int> in_flight{0};
  std::atomic<bool> listen_returned{false};
  auto now_ms = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };
  last_activity_ms = now_ms();

  httplib::Server svr;
  auto chat = [&](const httplib::Request& req, httplib::Response& res) {
    ++in_flight;
    last_activity_ms = now_ms();
    json body = json::parse(req.body, nullptr, false);
    bool body_ok = !body.is_discarded();
    std::string user = body_ok ? last_user_message(body) : "";
    int chosen = -1;
    Step step;
    long long n;
    {
      std::lock_guard<std::mutex> lk(mu);
      n = ++n_requests;
      for (size_t i = 0; i < steps.size() && body_ok; ++i) {
        Step& s = steps[i];
        if (s.times >= 0 && s.used >= s.times) continue;
        if (s.has_match && user.find(s.match) == std::string::npos) continue;
        ++s.used;
        chosen = static_cast<int>(i);
        step = s;
        break;
      }
      json line = {{"n", n}, {"step", chosen}, {"body", body_ok ? body : json(req.body)}};
      std::fputs((line.dump() + "\n").c_str(), log);
      std::fflush(log);
    }
    if (!body_ok) {
      res.status = 400;
      res.set_content(json{{"error", {{"message", "fake server: the request body is not JSON"}}}}.dump(),
                      "application/json");
    } else if (chosen < 0) {
      res.status = 500;
      res.set_content(json{{"error", {{"message", "fake server: script exhausted"}}}}.dump(), "application/json");
    } else {
      if (step.delay_s > 0) interruptible_sleep(step.delay_s);
      res.status = step.status;
      if (!step.retry_after.empty()) res.set_header("Retry-After", step.retry_after);
      if (step.has_raw) {
        res.set_content(step.raw, "application/json");
      } else if (step.status != 200) {
        std::string msg = step.content.empty() ? "fake server: scripted status " + std::to_string(step.status) : step.content;
        res.set_content(json{{"error", {{"message", msg}}}}.dump(), "application/json");
      } else {
        res.set_content(completion(body, step.content, n).dump(), "application/json");
      }
    }
    last_activity_ms = now_ms();
    --in_flight;
  };
  svr.Post("/v1/chat/completions", chat);
  svr.Post("/chat/completions", chat);
  svr.Get("/health", [](const httplib::Request&, httplib::Response& res) { res.set_content("ok", "text/plain"); });

  int port = args.port;
  if (port == 0) {
    port = svr.bind_to_any_port("127.0.0.1");
    if (port <= 0) die("cannot bind a port on 127.0.0.1", 1);
  } else if (!svr.bind_to_port("127.0.0.1", port)) {
    die("cannot bind 127.0.0.1:" + std::to_string(port) + " (in use?)", 1);
  }

  if (pipe(signal_pipe) != 0) die(std::string("pipe: ") + std::strerror(errno), 1);
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);

  // The watcher stops the server on a signal, or after idle_exit_s without requests (a crashed test never leaves
  // the server running).
  std::thread watcher([&] {
    while (true) {
      pollfd p{signal_pipe[0], POLLIN, 0};
      int rc = poll(&p, 1, 200);
      if (rc > 0) break;
      double idle_s = (now_ms() - last_activity_ms.load()) / 1000.0;
      if (in_flight == 0 && args.idle_exit_s > 0 && idle_s > args.idle_exit_s) {
        std::cerr << "kgen-fake-llm: no request for " << args.idle_exit_s << " s, exiting\n";
        break;
      }
    }
    stopping = true;
    // stop() does nothing before listen_after_bind() has started: repeat it until the server has returned.
    while (!listen_returned) {
      svr.stop();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });

  write_port_file(args.port_file, port);
  std::cerr << "kgen-fake-llm: listening on 127.0.0.1:" << port << " (" << steps.size() << " scripted steps)\n";
  svr.listen_after_bind();
  listen_returned = true;
  stopping = true;
  on_signal(0);  // wake the watcher if the server stopped by itself
  watcher.join();
  std::fclose(log);
  return 0;
}
