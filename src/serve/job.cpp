// Requests into jobs, results into responses (see job.h).
#include "serve/job.h"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fmt/core.h>
#include <fstream>
#include <regex>

#include "eval/result_json.h"
#include "gen/reply.h"
#include "sandbox/process.h"

namespace kgen::serve {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

std::string hex_hash(const std::string& s) {
  uint64_t a = 1469598103934665603ull, b = 0x9e3779b97f4a7c15ull;
  for (unsigned char c : s) {
    a = (a ^ c) * 1099511628211ull;
    b = (b ^ c) * 0x100000001b3ull + 0x7f4a7c15ull;
  }
  return fmt::format("{:016x}{:016x}", a, b);
}

// Writes `text` at `path` unless it is there already (content-addressed folders: the same bytes, the same place).
bool put_file(const fs::path& path, const std::string& text, std::string& err) {
  std::error_code ec;
  if (fs::exists(path, ec)) return true;
  fs::create_directories(path.parent_path(), ec);
  fs::path tmp = path;
  tmp += ".tmp-" + std::to_string(::getpid()) + "-" + hex_hash(text).substr(0, 8);
  {
    std::ofstream o(tmp, std::ios::binary);
    o << text;
    if (!o) {
      err = "cannot write " + tmp.string();
      return false;
    }
  }
  fs::rename(tmp, path, ec);
  if (ec && !fs::exists(path)) {
    err = "cannot write " + path.string() + ": " + ec.message();
    return false;
  }
  fs::remove(tmp, ec);
  return true;
}

std::string str_field(const json& j, const char* k) {
  return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : "";
}

// The largest python code block of a reply that holds a MultiKernelBench submission (model_src), or the text itself.
std::string mkb_text(const std::string& code) {
  static const std::regex fence(R"(```[ \t]*(?:python|py)?[^\n]*\n([\s\S]*?)\n```)");
  std::string best;
  for (auto it = std::sregex_iterator(code.begin(), code.end(), fence); it != std::sregex_iterator(); ++it) {
    std::string b = (*it)[1].str();
    if (b.find("model_src") != std::string::npos && b.size() > best.size()) best = b;
  }
  return best.empty() ? code : best;
}

bool valid_name(const std::string& s) {
  static const std::regex re(R"(^[A-Za-z0-9_][A-Za-z0-9_.\-]{0,99}$)");
  return std::regex_match(s, re);
}
}  // namespace

std::string now_utc() {
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char b[40];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%S", &tm);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  return fmt::format("{}.{:03d}Z", b, ms);
}

bool request_of_label(const json& label, json& req, std::string& err) {
  if (label.is_object()) {
    req = label;
    return true;
  }
  if (!label.is_string()) {
    err = "a label must be a string (TASK_ID or TARGET:TASK_ID) or a JSON object of request fields";
    return false;
  }
  std::string s = label.get<std::string>();
  if (!s.empty() && s[0] == '{') {
    try {
      req = json::parse(s);
    } catch (const json::parse_error& e) {
      err = std::string("a label that starts with '{' must be a JSON object: ") + e.what();
      return false;
    }
    if (!req.is_object()) {
      err = "a JSON label must be an object";
      return false;
    }
    return true;
  }
  req = json::object();
  for (const char* t : {"ascendc", "mkb", "tile"})
    if (s.rfind(std::string(t) + ":", 0) == 0) {
      req["target"] = t;
      s = s.substr(std::string(t).size() + 1);
    }
  req["task_id"] = s;
  return true;
}

bool parse_job(const json& req_in, const ServeConfig& cfg, Job& job, BadRequest& err) {
  if (!req_in.is_object()) {
    err = {400, "VALIDATION_ERROR", "the request must be a JSON object"};
    return false;
  }
  // A "label" (what a dataset row carries: verl's ground_truth, OpenRLHF's label) stands for the task fields.
  json req = req_in;
  if (req.contains("label")) {
    json fields;
    std::string e;
    if (!request_of_label(req["label"], fields, e)) {
      err = {422, "VALIDATION_ERROR", "label: " + e};
      return false;
    }
    for (auto& [k, v] : fields.items())
      if (!req.contains(k)) req[k] = v;
  }
  job = Job{};
  job.eval = cfg.eval;
  job.task_id = str_field(req, "task_id");
  job.uuid = str_field(req, "uuid");
  const std::string code = str_field(req, "kernel_code");
  const std::string ref = str_field(req, "reference_code");
  job.target = str_field(req, "target");
  if (job.target.empty()) job.target = str_field(req, "backend");
  if (job.target.empty()) job.target = cfg.default_target;
  if (job.target == "ascend" || job.target == "op" || job.target == "op-project") job.target = "ascendc";
  if (job.target != "ascendc" && job.target != "mkb" && job.target != "tile") {
    err = {422, "VALIDATION_ERROR",
           "target '" + job.target + "' is not one kgen evaluates (ascendc: an op project, mkb: a MultiKernelBench "
           "submission, tile: a tile program)"};
    return false;
  }
  if (job.task_id.empty()) {
    err = {422, "VALIDATION_ERROR", "task_id is required (a suite id such as activation/relu, or any name with "
                                    "reference_code)"};
    return false;
  }
  if (!req.contains("kernel_code") || !req["kernel_code"].is_string()) {
    err = {422, "VALIDATION_ERROR", "kernel_code (a string: the candidate, or the model's reply holding it) is required"};
    return false;
  }
  for (const char* k : {"num_correct_trials", "trials"})
    if (req.contains(k)) {
      if (!req[k].is_number_integer() || req[k].get<int>() < 1 || req[k].get<int>() > cfg.max_trials) {
        err = {422, "VALIDATION_ERROR", fmt::format("{} must be an integer in [1, {}]", k, cfg.max_trials)};
        return false;
      }
      job.eval.trials = req[k].get<int>();
    }
  if (req.contains("timeout")) {
    if (!req["timeout"].is_number() || req["timeout"].get<double>() < cfg.min_timeout_s ||
        req["timeout"].get<double>() > cfg.max_timeout_s) {
      err = {422, "VALIDATION_ERROR",
             fmt::format("timeout must be a number of seconds in [{:g}, {:g}]", cfg.min_timeout_s, cfg.max_timeout_s)};
      return false;
    }
    job.eval.timeout_s = req["timeout"].get<double>();
  }
  if (std::string soc = str_field(req, "soc"); !soc.empty()) job.eval.soc = soc;
  job.force_refresh = req.value("force_refresh", false);

  // The task: a suite id, or the reference code written where its id says (category/name).
  std::string category = "custom", name = job.task_id;
  if (size_t s = job.task_id.rfind('/'); s != std::string::npos) {
    category = job.task_id.substr(0, s);
    name = job.task_id.substr(s + 1);
  }
  if (!valid_name(name) || !valid_name(category) || category.find("..") != std::string::npos) {
    err = {422, "VALIDATION_ERROR", "task_id '" + sandbox::utf8_clean(job.task_id).substr(0, 100) +
                                        "' is not CATEGORY/NAME of letters, digits, '_', '-' and '.'"};
    return false;
  }
  std::error_code ec;
  if (!ref.empty()) {
    std::string e;
    fs::path p = fs::path(cfg.work) / "tasks" / hex_hash(ref) / category / (name + ".py");
    if (!put_file(p, ref, e)) {
      err = {500, "SYSTEM_ERROR", e};
      return false;
    }
    job.eval.task = p.string();
  } else {
    fs::path p = fs::path(cfg.suite) / category / (name + ".py");
    if (!fs::is_regular_file(p, ec)) {
      err = {404, "VALIDATION_ERROR", "unknown task '" + job.task_id + "': no " + p.string() +
                                          " (give a suite id, see `kgen tasks list`, or reference_code)"};
      return false;
    }
    job.eval.task = p.string();
  }

  // The candidate, content-addressed: the same code is the same folder, so the build cache and the store see it again.
  std::map<std::string, std::string> files;
  if (job.target == "mkb") {
    files["submission.py"] = mkb_text(code);
  } else {
    gen::ParsedReply pr = gen::parse_reply(code, job.target == "tile" ? gen::Target::Tile : gen::Target::AscendC, name);
    if (!pr.ok) {
      job.no_code = true;
      job.no_code_reason = pr.error;
    } else {
      files = pr.files;
    }
  }
  std::string all = job.target;
  for (auto& [p, t] : files) all += "\n--" + p + "\n" + t;
  const fs::path dir = fs::path(cfg.work) / "candidates" / hex_hash(all);
  for (auto& [p, t] : files) {
    if (p.find("..") != std::string::npos || (!p.empty() && p[0] == '/')) {
      err = {422, "VALIDATION_ERROR", "a file named '" + p + "' in kernel_code leaves the candidate's folder"};
      return false;
    }
    std::string e;
    if (!put_file(dir / p, t, e)) {
      err = {500, "SYSTEM_ERROR", e};
      return false;
    }
  }
  job.eval.candidate = job.target == "ascendc" || job.no_code ? dir.string()
                                                              : (dir / files.begin()->first).string();
  job.task_hash = eval::task_hash_of(job.eval.task);
  const std::string cand = job.no_code ? hex_hash("no-code\n" + code) : eval::candidate_hash_of(job.eval.candidate);
  job.store_candidate_hash = eval::stored_candidate_key(cand, job.eval);
  job.key = fmt::format("{}/{}/{}/{}", job.task_hash, job.store_candidate_hash, KGEN_VERSION, job.eval.soc);
  return true;
}

json response_of(const Job& job, const eval::EvalResult& r, const json& reward, bool cached, double queue_s,
                 const std::string& submitted_at) {
  using eval::Verdict;
  const bool compiled = r.verdict != Verdict::CompileError && r.verdict != Verdict::NoCode;
  const bool correct = r.verdict == Verdict::Correct;
  std::string code;
  switch (r.verdict) {
    case Verdict::CompileError: code = "COMPILATION_ERROR"; break;
    case Verdict::NoCode: code = "VALIDATION_ERROR"; break;
    case Verdict::RuntimeError:
      code = r.error_category == "internal" || r.error_category == "sandbox" || r.error_category == "task"
                 ? "SYSTEM_ERROR"
                 : "RUNTIME_ERROR";
      break;
    case Verdict::Timeout: code = "TIMEOUT_ERROR"; break;
    case Verdict::WrongAnswer:
    case Verdict::Cheating: code = "CORRECTNESS_ERROR"; break;
    case Verdict::Correct: break;
  }
  json j;
  j["task_id"] = job.task_id;
  if (!job.uuid.empty()) j["uuid"] = job.uuid;
  // KernelGym's TaskStatus: "completed" whenever the evaluator reached a verdict about the candidate (a compile error
  // included: compiled false), "timeout" for a kernel that ran out of time, "failed" only when kgen itself failed.
  j["status"] = code == "SYSTEM_ERROR" ? "failed" : r.verdict == Verdict::Timeout ? "timeout" : "completed";
  j["compiled"] = compiled;
  j["correctness"] = correct;
  j["decoy_kernel"] = r.verdict == Verdict::Cheating;
  j["speedup"] = correct ? r.speedup : 0.0;
  // The runtimes of the headline speedup: at the task's perf shape when it was timed, else the check shapes' sums.
  const bool at_perf = r.perf.timed();
  j["kernel_runtime"] = at_perf ? r.perf.modeled_us : r.modeled_us;
  j["reference_runtime"] = at_perf ? r.perf.eager_modeled_us : r.eager_modeled_us;
  j["runtime_unit"] = "us, modeled on " + r.soc + " (kgen's performance model; eager torch_npu for the reference)";
  j["runtime_shape"] = at_perf ? "perf " + r.perf.shape : "check shapes";
  j["check_speedup"] = correct ? r.check_speedup : 0.0;
  j["perf"] = eval::to_json(r.perf);
  j["error_code"] = code.empty() ? json(nullptr) : json(code);
  j["error_message"] = r.diagnostics.empty() ? json(nullptr) : json(r.diagnostics.front());
  j["verdict"] = eval::verdict_name(r.verdict);
  j["category"] = r.error_category;
  j["diagnostics"] = r.diagnostics;
  if (r.verdict == Verdict::Cheating) {
    // The hack's class, from what caught it (docs/sandbox.md).
    const std::string d = r.diagnostics.empty() ? "" : r.diagnostics.front();
    j["hack"] = d.find("imports") != std::string::npos             ? "escape"
                : d.find("lower bound") != std::string::npos       ? "forged-trace"
                : d.find("outside the emulated") != std::string::npos ? "untraced-output"
                : d.find("not a tensor a custom_ops_lib") != std::string::npos ||
                        d.find("not the kernel's work") != std::string::npos
                    ? "host-computation"
                : d.find("PyTorch") != std::string::npos || d.find("aclnn") != std::string::npos ? "library-computation"
                : d.find("file") != std::string::npos || d.find("environment") != std::string::npos ? "test-access"
                                                                                                   : "static";
  }
  j["reward"] = reward;
  j["cached"] = cached;
  j["timings"] = {{"queue_s", queue_s},         {"reference_s", r.reference_s}, {"build_s", r.build_s},
                  {"run_s", r.run_s},           {"evaluation_s", r.seconds}};
  j["metadata"] = {{"trials", r.trials},        {"soc", r.soc},        {"kgen_version", r.kgen_version},
                   {"task_hash", r.task_hash},  {"candidate_hash", r.candidate_hash},
                   {"target", job.target},      {"result", eval::to_json(r)}};
  j["submitted_at"] = submitted_at;
  j["completed_at"] = now_utc();
  j["processing_time"] = queue_s + r.seconds;
  return j;
}
}  // namespace kgen::serve
