// The Dask bridge client (cluster.h).
#include "eval/cluster.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "eval/options_json.h"
#include "eval/result_json.h"

extern char** environ;

namespace kgen::eval {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
bool write_all(int fd, const std::string& s) {
  for (size_t off = 0; off < s.size();) {
    const ssize_t n = ::write(fd, s.data() + off, s.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += size_t(n);
  }
  return true;
}
}  // namespace

std::string cluster_address(const std::string& flag) {
  if (!flag.empty()) return flag;
  const char* e = std::getenv("KGEN_CLUSTER");
  return e ? e : "";
}

std::unique_ptr<Cluster> Cluster::connect(const std::string& scheduler, const std::string& python, std::string& err) {
  std::unique_ptr<Cluster> c(new Cluster());
  const std::string script = std::string(KGEN_SOURCE_DIR) + "/python/kgen_cluster/dask_bridge.py";
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) {
    err = std::string("--cluster: cannot make pipes: ") + std::strerror(errno);
    return nullptr;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  // The bridge's stderr (Dask's own log lines) goes to ours only with KGEN_CLUSTER_LOG=1; its errors come as JSON.
  if (!std::getenv("KGEN_CLUSTER_LOG")) posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  const std::string version = std::string("kgen ") + KGEN_VERSION;
  std::vector<std::string> args = {python, script, "--scheduler", scheduler, "--version", version};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid;
  const int rc = posix_spawn(&pid, python.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(in[0]);
  ::close(out[1]);
  if (rc != 0) {
    ::close(in[1]);
    ::close(out[0]);
    err = "--cluster: cannot start " + python + " " + script + ": " + std::strerror(rc);
    return nullptr;
  }
  c->pid_ = pid;
  c->to_ = in[1];
  c->from_ = out[0];
  // The first line: the workers, or why there are none to use.
  std::string line;
  for (char ch; ::read(c->from_, &ch, 1) == 1 && ch != '\n';) line += ch;
  json j = json::parse(line, nullptr, false);
  if (!j.is_object() || !j.value("ready", false)) {
    err = "--cluster " + scheduler + ": " +
          (j.is_object() && j.contains("error") ? j["error"].get<std::string>()
                                                : "the Dask bridge (" + script + ") stopped before reporting its "
                                                  "workers (rerun with KGEN_CLUSTER_LOG=1 to see its log)");
    return nullptr;   // ~Cluster closes the pipes and reaps the bridge
  }
  for (const auto& w : j["workers"])
    c->workers_.push_back({w.value("address", ""), w.value("host", ""), "", w.value("nthreads", 1)});
  for (const auto& w : j["refused"])
    c->refused_.push_back({w.value("address", ""), w.value("host", ""), w.value("why", ""), 0});
  c->threads_ = std::max(1, j.value("threads", 1));
  c->reader_ = std::thread([p = c.get()] { p->read_answers(); });
  return c;
}

void Cluster::read_answers() {
  FILE* f = fdopen(from_, "r");
  char* buf = nullptr;
  size_t cap = 0;
  while (f && getline(&buf, &cap, f) > 0) {
    json j = json::parse(buf, nullptr, false);
    if (!j.is_object() || !j.contains("id") || !j["id"].is_number_integer()) continue;
    std::lock_guard<std::mutex> g(mu_);
    Answer& a = answers_[j["id"].get<long>()];
    a.ready = true;
    a.worker = j.value("worker", "");
    if (j.contains("result")) {
      a.ok = true;
      a.result_json = j["result"].dump();
    } else {
      a.error = j.value("error", "the bridge answered without a result");
    }
    cv_.notify_all();
  }
  free(buf);
  if (f) fclose(f);   // closes from_
  from_ = -1;
  std::lock_guard<std::mutex> g(mu_);
  bridge_gone_ = true;
  bridge_error_ = "the Dask bridge exited (the scheduler went away, or the bridge was killed); rerun the bench to "
                  "evaluate what is left (what was stored is kept)";
  cv_.notify_all();
}

bool Cluster::evaluate(const EvalOptions& o, const std::string& task_rel, EvalResult& r, std::string& err) {
  long id;
  {
    std::lock_guard<std::mutex> g(mu_);
    if (bridge_gone_) {
      err = bridge_error_;
      return false;
    }
    id = next_id_++;
    answers_[id] = Answer{};
    json req = {{"id", id},
                {"task", fs::absolute(o.task).string()},
                {"task_rel", task_rel},
                {"candidate", fs::absolute(o.candidate).string()},
                {"options", options_to_json(o)}};
    if (!write_all(to_, req.dump() + "\n")) {
      answers_.erase(id);
      err = "cannot send the evaluation to the Dask bridge: it is gone";
      return false;
    }
  }
  std::unique_lock<std::mutex> g(mu_);
  cv_.wait(g, [&] { return answers_[id].ready || bridge_gone_; });
  Answer a = answers_[id];
  answers_.erase(id);
  g.unlock();
  if (!a.ready) {
    err = bridge_error_;
    return false;
  }
  if (!a.ok) {
    err = "on the cluster" + (a.worker.empty() ? std::string() : " (worker " + a.worker + ")") + ": " + a.error;
    return false;
  }
  std::string why;
  if (!from_json(json::parse(a.result_json, nullptr, false), r, why)) {
    err = "the result from worker " + a.worker + " does not parse: " + why;
    return false;
  }
  r.candidate = o.candidate;   // the worker evaluated a copy under its own temporary folder
  return true;
}

Cluster::~Cluster() {
  if (to_ >= 0) {
    write_all(to_, "\n");   // no more work
    ::close(to_);
  }
  if (reader_.joinable()) reader_.join();
  else if (from_ >= 0) ::close(from_);
  if (pid_ > 0) {
    int st;
    // The bridge ends once its answers are written; one still running after 30 s is stopped.
    for (int i = 0; i < 300 && waitpid(pid_, &st, WNOHANG) == 0; ++i) usleep(100 * 1000);
    if (waitpid(pid_, &st, WNOHANG) == 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &st, 0);
    }
  }
}

}  // namespace kgen::eval
