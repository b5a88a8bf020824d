// The HTTP side of `kgen serve` (see server.h): requests parsed into jobs, jobs through the pool, outcomes into the
// response shapes KernelGym and OpenRLHF clients read.
#include "serve/server.h"

#include <httplib.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <cmath>
#include <fmt/core.h>
#include <fstream>
#include <thread>

#include "eval/reference.h"
#include "sandbox/process.h"
#include "serve/metrics.h"
#include "serve/pool.h"

namespace kgen::serve {
namespace {
using nlohmann::json;
using Clock = std::chrono::steady_clock;

json error_body(int status, const std::string& code, const std::string& message) {
  // "detail" is what FastAPI clients (KernelGym's) read; error_code/error_message what its responses carry.
  return {{"status", "failed"}, {"http_status", status}, {"error_code", code}, {"error_message", message},
          {"detail", message}};
}

void send_json(httplib::Response& res, int status, const json& j) {
  res.status = status;
  res.set_content(j.dump(-1, ' ', false, json::error_handler_t::replace), "application/json");
}

void send_error(httplib::Response& res, int status, const std::string& code, const std::string& message) {
  send_json(res, status, error_body(status, code, message));
}

// The body as JSON, or false with a 400 naming the byte where it went wrong.
bool json_body(const httplib::Request& req, httplib::Response& res, json& out) {
  if (req.body.empty()) {
    send_error(res, 400, "VALIDATION_ERROR", "the request has no body (send a JSON object, Content-Type: "
                                             "application/json)");
    return false;
  }
  try {
    out = json::parse(req.body);
  } catch (const json::parse_error& e) {
    send_error(res, 400, "VALIDATION_ERROR",
               fmt::format("the body is not JSON: at byte {}: {}", e.byte, sandbox::utf8_clean(e.what())));
    return false;
  }
  if (!out.is_object()) {
    send_error(res, 400, "VALIDATION_ERROR", "the body must be a JSON object");
    return false;
  }
  return true;
}

class Service {
 public:
  explicit Service(const ServerConfig& cfg, eval::Store* store)
      : cfg_(cfg), pool_(cfg.workers, cfg.queue, store), store_backend_(store ? store->backend() : "none") {}

  void routes(httplib::Server& http) {
    http.Post("/evaluate", [this](const httplib::Request& q, httplib::Response& r) { evaluate(q, r); count("/evaluate", r); });
    http.Post("/evaluate/batch", [this](const httplib::Request& q, httplib::Response& r) {
      batch(q, r);
      count("/evaluate/batch", r);
    });
    for (const char* p : {"/get_reward", "/reward"})
      http.Post(p, [this, p](const httplib::Request& q, httplib::Response& r) { reward(q, r); count(p, r); });
    http.Get("/health", [this](const httplib::Request&, httplib::Response& r) {
      json h = metrics_.health(load());
      h["kgen_version"] = KGEN_VERSION;
      h["soc"] = cfg_.jobs.eval.soc;
      h["reward"] = to_json(cfg_.reward);
      h["store"] = store_backend_;
      const bool draining = pool_.draining();
      if (draining) h["status"] = "draining";   // 503: load balancers and reward clients stop sending here
      send_json(r, draining ? 503 : 200, h);
      count("/health", r);
    });
    http.Get("/metrics", [this](const httplib::Request&, httplib::Response& r) {
      r.set_content(metrics_.prometheus(load()), "text/plain; version=0.0.4");
      count("/metrics", r);
    });
  }
  void stop() { pool_.stop(); }
  void drain() { pool_.drain(); }
  bool idle() const { return pool_.idle(); }
  void count(const std::string& endpoint, const httplib::Response& r) { metrics_.request(endpoint, r.status); }

 private:
  Metrics::Load load() const { return {pool_.queued(), pool_.capacity(), pool_.busy(), pool_.workers()}; }

  json reward_json(const eval::EvalResult& r) const {
    Reward w = reward_of(r, cfg_.reward);
    return {{"total", w.total}, {"kind", cfg_.reward.kind}, {"components", w.components}};
  }

  void too_busy(httplib::Response& res, size_t wanted) {
    if (pool_.draining()) {   // shutting down: the caller should go to another instance now, not retry this one
      res.set_header("Retry-After", "5");
      send_error(res, 503, "SYSTEM_ERROR",
                 "kgen serve is draining (it was asked to stop): it finishes the evaluations it has and takes no "
                 "new ones; send this request to another instance");
      return;
    }
    // Retry-After: the time the queue ahead takes to drain at the measured evaluation time.
    const double per = std::max(0.5, pool_.mean_evaluation_s());
    const long wait = std::max(1L, std::lround(std::ceil(static_cast<double>(pool_.queued()) * per /
                                                         std::max(1, pool_.workers()))));
    res.set_header("Retry-After", std::to_string(wait));
    send_error(res, 429, "SYSTEM_ERROR",
               fmt::format("kgen serve is busy: {} evaluation(s) queued of {}, {} more asked for; retry after {} s",
                           pool_.queued(), pool_.capacity(), wanted, wait));
  }

  // Waits for each pending outcome until the request's deadline; nullopt for those not done by then.
  std::vector<std::optional<Outcome>> wait_all(const std::vector<Pending>& pending, Clock::time_point t0) {
    const auto deadline = t0 + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>(cfg_.request_timeout_s));
    std::vector<std::optional<Outcome>> out(pending.size());
    for (size_t i = 0; i < pending.size(); ++i)
      if (pending[i].wait_until(deadline) == std::future_status::ready) out[i] = pending[i].get();
    return out;
  }

  std::string still_running() const {
    return fmt::format("the evaluation did not finish within the request timeout ({:g} s); it goes on, and the same "
                       "request sent again is answered from the results store once it is done",
                       cfg_.request_timeout_s);
  }

  json answer(const Job& job, const Outcome& o, const std::string& submitted, Clock::time_point t0) {
    metrics_.answered(o.result, o.cached, since(t0));
    return response_of(job, o.result, reward_json(o.result), o.cached, o.queue_s, submitted);
  }

  void evaluate(const httplib::Request& req, httplib::Response& res) {
    const auto t0 = Clock::now();
    const std::string submitted = now_utc();
    json body;
    if (!json_body(req, res, body)) return;
    Job job;
    BadRequest bad;
    if (!parse_job(body, cfg_.jobs, job, bad)) return send_error(res, bad.status, bad.code, bad.message);
    auto pending = pool_.submit({job});
    if (!pending) return too_busy(res, 1);
    auto done = wait_all(*pending, t0);
    if (!done[0]) return send_error(res, 504, "TIMEOUT_ERROR", still_running());
    send_json(res, 200, answer(job, *done[0], submitted, t0));
  }

  void batch(const httplib::Request& req, httplib::Response& res) {
    const auto t0 = Clock::now();
    const std::string submitted = now_utc();
    json body;
    if (!json_body(req, res, body)) return;
    if (!body.contains("tasks") || !body["tasks"].is_array() || body["tasks"].empty())
      return send_error(res, 422, "VALIDATION_ERROR", "a batch is {\"batch_id\": ..., \"tasks\": [request, ...]} with "
                                                      "at least one task");
    const json& tasks = body["tasks"];
    if (tasks.size() > cfg_.max_batch)
      return send_error(res, 413, "VALIDATION_ERROR",
                        fmt::format("a batch holds at most {} tasks (kgen serve --max-batch); this one has {}",
                                    cfg_.max_batch, tasks.size()));
    // Every task parsed; the invalid ones answered in place, the rest submitted together (all or none: 429).
    std::vector<json> results(tasks.size());
    std::vector<Job> jobs;
    std::vector<size_t> where;
    for (size_t i = 0; i < tasks.size(); ++i) {
      Job j;
      BadRequest bad;
      if (parse_job(tasks[i], cfg_.jobs, j, bad)) {
        jobs.push_back(std::move(j));
        where.push_back(i);
      } else {
        results[i] = error_body(bad.status, bad.code, fmt::format("tasks[{}]: {}", i, bad.message));
        if (tasks[i].is_object() && tasks[i].contains("task_id")) results[i]["task_id"] = tasks[i]["task_id"];
      }
    }
    auto pending = pool_.submit(jobs);
    if (!pending) return too_busy(res, jobs.size());
    auto done = wait_all(*pending, t0);
    size_t failed = tasks.size() - jobs.size();
    for (size_t k = 0; k < jobs.size(); ++k) {
      if (!done[k]) {
        results[where[k]] = error_body(504, "TIMEOUT_ERROR", still_running());
        results[where[k]]["task_id"] = jobs[k].task_id;
        ++failed;
        continue;
      }
      results[where[k]] = answer(jobs[k], *done[k], submitted, t0);
      if (results[where[k]]["status"] != "completed") ++failed;
    }
    send_json(res, 200,
              {{"batch_id", body.value("batch_id", json(nullptr))}, {"total_tasks", tasks.size()},
               {"completed_tasks", tasks.size() - failed}, {"failed_tasks", failed}, {"results", results},
               {"batch_status", "completed"}, {"submitted_at", submitted}, {"completed_at", now_utc()},
               {"processing_time", since(t0)}});
  }

  // OpenRLHF's remote reward model call (openrlhf/utils/remote_rm_utils.py): one request per batch of samples.
  void reward(const httplib::Request& req, httplib::Response& res) {
    const auto t0 = Clock::now();
    const std::string submitted = now_utc();
    json body;
    if (!json_body(req, res, body)) return;
    for (const char* k : {"query", "labels"})
      if (!body.contains(k) || !body[k].is_array())
        return send_error(res, 422, "VALIDATION_ERROR",
                          fmt::format("'{}' must be a list (OpenRLHF sends {{\"query\": [...], \"prompts\": [...], "
                                      "\"labels\": [...]}}; start it with --remote_rm_url and --label_key)",
                                      k));
    const json& query = body["query"];
    const json& labels = body["labels"];
    const json prompts = body.contains("prompts") && body["prompts"].is_array() ? body["prompts"] : json::array();
    if (labels.size() != query.size() || (!prompts.empty() && prompts.size() != query.size()))
      return send_error(res, 422, "VALIDATION_ERROR",
                        fmt::format("query, prompts and labels must be as long as each other ({}, {}, {})",
                                    query.size(), prompts.size(), labels.size()));
    if (query.size() > cfg_.max_batch)
      return send_error(res, 413, "VALIDATION_ERROR",
                        fmt::format("at most {} samples per call (kgen serve --max-batch); this one has {}",
                                    cfg_.max_batch, query.size()));
    std::vector<Job> jobs;
    for (size_t i = 0; i < query.size(); ++i) {
      if (!query[i].is_string()) return send_error(res, 422, "VALIDATION_ERROR", fmt::format("query[{}] is not a string", i));
      std::string reply = query[i].get<std::string>();
      // OpenRLHF's query is the prompt followed by the response (decoded together): the model's reply is what
      // follows the prompt, so that code in the prompt (the reference, an example) is never taken for the answer.
      if (!prompts.empty() && prompts[i].is_string()) {
        const std::string p = prompts[i].get<std::string>();
        if (size_t at = p.empty() ? std::string::npos : reply.find(p); at != std::string::npos)
          reply = reply.substr(at + p.size());
      }
      json r;
      std::string err;
      if (!request_of_label(labels[i], r, err)) return send_error(res, 422, "VALIDATION_ERROR", fmt::format("labels[{}]: {}", i, err));
      r["kernel_code"] = reply;
      Job j;
      BadRequest bad;
      if (!parse_job(r, cfg_.jobs, j, bad))
        return send_error(res, bad.status, bad.code, fmt::format("sample {} (labels[{}]): {}", i, i, bad.message));
      jobs.push_back(std::move(j));
    }
    auto pending = pool_.submit(jobs);
    if (!pending) return too_busy(res, jobs.size());
    auto done = wait_all(*pending, t0);
    json rewards = json::array(), scores = json::array();
    json logs = {{"correct", json::array()}, {"compiled", json::array()}, {"speedup", json::array()},
                 {"hack", json::array()},    {"cached", json::array()},   {"no_code", json::array()}};
    json verdicts = json::array();
    for (size_t k = 0; k < jobs.size(); ++k)
      if (!done[k]) return send_error(res, 504, "TIMEOUT_ERROR", fmt::format("sample {}: {}", k, still_running()));
    for (size_t k = 0; k < jobs.size(); ++k) {
      json a = answer(jobs[k], *done[k], submitted, t0);
      rewards.push_back(a["reward"]["total"]);
      scores.push_back(a["correctness"].get<bool>() ? 1.0 : 0.0);
      logs["correct"].push_back(a["correctness"].get<bool>() ? 1.0 : 0.0);
      logs["compiled"].push_back(a["compiled"].get<bool>() ? 1.0 : 0.0);
      logs["speedup"].push_back(a["speedup"]);
      logs["hack"].push_back(a["decoy_kernel"].get<bool>() ? 1.0 : 0.0);
      logs["cached"].push_back(a["cached"].get<bool>() ? 1.0 : 0.0);
      logs["no_code"].push_back(a["verdict"] == "no-code" ? 1.0 : 0.0);
      verdicts.push_back(a["verdict"]);
    }
    send_json(res, 200, {{"rewards", rewards}, {"scores", scores}, {"extra_logs", logs}, {"verdicts", verdicts}});
  }

  const ServerConfig& cfg_;
  Pool pool_;
  std::string store_backend_;
  Metrics metrics_;
};
}  // namespace

int serve(const ServerConfig& cfg_in, std::string& err) {
  ServerConfig cfg = cfg_in;
  if (cfg.max_batch > cfg.queue) cfg.max_batch = cfg.queue;   // a batch must fit the queue to ever run
  std::unique_ptr<eval::Store> store = eval::Store::open(cfg.store, err);
  if (!store) return 2;
  // One secret seed for the process's secret trials (the references of a task are computed once), in a private
  // folder removed at exit.
  std::string secret_dir;
  if (cfg.jobs.eval.secret_trials > 0) {
    if (!cfg.jobs.eval.secret_seed) cfg.jobs.eval.secret_seed = eval::draw_secret_seed();
    if (cfg.jobs.eval.secret_cache.empty()) {
      std::string tmpl = cfg.jobs.work + "/secret-XXXXXX";
      std::filesystem::create_directories(cfg.jobs.work);
      if (!mkdtemp(tmpl.data())) {
        err = "cannot make a secret folder under " + cfg.jobs.work + ": " + std::strerror(errno);
        return 2;
      }
      secret_dir = cfg.jobs.eval.secret_cache = tmpl;
    }
  }

  // SIGINT/SIGTERM are taken by one thread (sigwait); every other thread, and so every evaluation's child until it
  // resets its mask (sandbox/process.cpp), has them blocked.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);
  // One descriptor per connection: a burst of a thousand must not run out at a default soft limit of 1024.
  if (rlimit nofile{}; getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < nofile.rlim_max) {
    nofile.rlim_cur = nofile.rlim_max;
    setrlimit(RLIMIT_NOFILE, &nofile);
  }   // a client that hangs up is the write's error, not the service's death

  int rc = 0;
  {
    Service service(cfg, store.get());
    httplib::Server http;
    http.set_payload_max_length(cfg.max_body);
    http.set_read_timeout(30, 0);
    http.set_write_timeout(30, 0);
    http.set_keep_alive_max_count(1000);
    // Enough handler threads for every queued or running evaluation plus the quick ones (health, 429s, cache hits).
    const size_t threads = std::min<size_t>(cfg.queue + static_cast<size_t>(cfg.workers) + 16, 2048);
    http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
    service.routes(http);
    http.set_error_handler([&service](const httplib::Request& req, httplib::Response& res) {
      if (!res.body.empty()) return;
      if (res.status == 413)
        send_error(res, 413, "VALIDATION_ERROR", "the request body is larger than kgen serve takes (--max-body-mb)");
      else if (res.status == 404)
        send_error(res, 404, "VALIDATION_ERROR",
                   req.method + " " + req.path + " is not an endpoint of kgen serve (POST /evaluate, "
                   "/evaluate/batch, /get_reward, /reward; GET /health, /metrics)");
      else
        send_error(res, res.status, "VALIDATION_ERROR", "HTTP error " + std::to_string(res.status));
      service.count(req.path, res);
    });
    http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
      std::string what = "unknown exception";
      try {
        std::rethrow_exception(ep);
      } catch (const std::exception& e) {
        what = e.what();
      } catch (...) {
      }
      send_error(res, 500, "SYSTEM_ERROR", "kgen serve: internal error: " + what);
    });

    // cpp-httplib listens with a backlog of 5 (CPPHTTPLIB_LISTEN_BACKLOG, compiled into Debian's library): a burst
    // of trainer connections beyond it is reset. The socket is ours to take here; listen() again raises it below.
    int listen_fd = -1;
    http.set_socket_options([&listen_fd](int sock) {
      httplib::default_socket_options(sock);
      listen_fd = sock;
    });
    const int port = cfg.port == 0 ? http.bind_to_any_port(cfg.host) : (http.bind_to_port(cfg.host, cfg.port) ? cfg.port : -1);
    if (port >= 0 && listen_fd >= 0) ::listen(listen_fd, 4096);   // the kernel caps it at net.core.somaxconn
    if (port < 0) {
      err = fmt::format("cannot listen on {}:{} (in use, or not an address of this machine)", cfg.host, cfg.port);
      rc = 2;
    } else {
      std::atomic<bool> signalled{false};
      std::thread signals([&] {
        int sig = 0;
        sigwait(&stop_signals, &sig);
        signalled = true;
        // The first signal drains: /health says 503 "draining", new work is refused with 503, what is queued or
        // running is evaluated and answered, for up to --drain-timeout seconds. A second signal stops at once.
        if (cfg.drain_timeout_s > 0 && !service.idle()) {
          service.drain();
          fmt::print(stderr, "kgen serve: draining (up to {:g} s; a second SIGTERM/SIGINT stops at once)\n",
                     cfg.drain_timeout_s);
          const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(cfg.drain_timeout_s);
          const timespec tick{0, 200 * 1000 * 1000};
          while (!service.idle() && std::chrono::steady_clock::now() < until)
            if (sigtimedwait(&stop_signals, nullptr, &tick) > 0) break;
          std::this_thread::sleep_for(std::chrono::milliseconds(300));   // the last answers leave their sockets
        }
        service.stop();   // queued requests answered with an error; running evaluations finish into the store
        http.stop();
      });
      if (!cfg.port_file.empty()) {
        std::string tmp = cfg.port_file + ".tmp";
        std::ofstream(tmp) << port << "\n";
        std::rename(tmp.c_str(), cfg.port_file.c_str());
      }
      fmt::print(stderr, "kgen serve: listening on http://{}:{} ({} workers, queue {}, store {}, reward {})\n",
                 cfg.host, port, cfg.workers, cfg.queue, store->path(), cfg.reward.kind);
      http.listen_after_bind();
      if (!signalled) kill(getpid(), SIGTERM);   // wakes the signal thread when the server stopped on its own
      signals.join();
      fmt::print(stderr, "kgen serve: stopped\n");
    }
  }
  if (!secret_dir.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(secret_dir, ec);
  }
  return rc;   // the signals stay blocked: one sent while stopping must not kill the process on its way out
}
}  // namespace kgen::serve
