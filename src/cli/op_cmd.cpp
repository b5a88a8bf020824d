// `kgen op run PROJECT --input x=x.npy ... --out DIR`: runs an op project (CANN op_host + op_kernel) on the
// emulator. The work happens in the child process kgen-oprun (src/op), started with limits: wall timeout (the
// process group is killed), CPU time (RLIMIT_CPU), address space (RLIMIT_AS) and file size (RLIMIT_FSIZE).
// Its output and exit status are relayed: 0 ok, 3 the op or kernel is wrong (error[CATEGORY] FILE:LINE: ...),
// 2 usage, 1 internal. --json prints one JSON object on stdout instead (the child's text goes to stderr).
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "cli/op_cmd.h"
#include "cli/subprocess.h"

namespace kgen::cli {
namespace {
namespace fs = std::filesystem;

struct OpRunOptions {
  std::string project, out, soc = "Ascend910B2", op;
  std::vector<std::string> inputs, positional, attrs, output_shapes;
  double timeout = 600;
  double memory_mb = 16384;
  double file_mb = 4096;
  bool json = false;
};

std::string oprun_path() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ((ec ? fs::path(".") : exe.parent_path()) / "kgen-oprun").string();
}

nlohmann::json errors_of(const std::string& out) {
  nlohmann::json errs = nlohmann::json::array();
  std::regex re(R"((?:^|\n)error\[([\w-]+)\](?: ([^\s:]+):(\d+)?:?)? ([^\n]*))");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), re); it != std::sregex_iterator(); ++it) {
    nlohmann::json e;
    e["category"] = (*it)[1].str();
    e["file"] = (*it)[2].str();
    e["line"] = (*it)[3].matched ? std::stoi((*it)[3].str()) : 0;
    e["message"] = (*it)[4].str();
    errs.push_back(e);
  }
  return errs;
}

int run_op(const OpRunOptions& o) {
  std::vector<std::string> argv = {oprun_path(), "run", o.project, "--out", o.out, "--soc", o.soc};
  for (auto& i : o.positional) argv.insert(argv.end(), {"--input", i});
  for (auto& i : o.inputs) argv.insert(argv.end(), {"--input", i});
  for (auto& a : o.attrs) argv.insert(argv.end(), {"--attr", a});
  for (auto& s : o.output_shapes) argv.insert(argv.end(), {"--output-shape", s});
  if (!o.op.empty()) argv.insert(argv.end(), {"--op", o.op});
  std::string json_file;
  if (o.json) {
    char tmpl[] = "/tmp/kgen-oprun-XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd >= 0) close(fd);
    json_file = tmpl;
    argv.insert(argv.end(), {"--json-file", json_file});
  }
  if (!fs::exists(argv[0])) {
    std::cerr << "kgen op run: " << argv[0] << " is missing (build the kgen-oprun target)\n";
    return 1;
  }
  ProcLimits lim;
  lim.cpu_s = o.timeout > 0 ? o.timeout + 5 : 0;
  lim.memory_bytes = static_cast<size_t>(o.memory_mb * 1024 * 1024);
  lim.file_bytes = static_cast<size_t>(o.file_mb * 1024 * 1024);
  lim.no_network = true;
  ProcResult r = run_process(argv, o.timeout > 0 ? o.timeout : 1e9, lim);
  int status = r.status;
  std::string out = r.out;
  if (r.timed_out) {
    out += "error[timeout] " + o.project + ": the op run exceeded --timeout " + std::to_string(static_cast<int>(o.timeout)) +
           " s (build, tiling and kernel together) and was stopped — look for a kernel loop that never ends, or raise --timeout\n";
    status = 3;
  } else if (status == 128 + SIGXCPU || status == 128 + SIGKILL) {
    out += "error[timeout] " + o.project + ": the op run used up its CPU time limit and was stopped\n";
    status = 3;
  } else if (status == 128 + SIGXFSZ) {
    out += "error[internal] " + o.project + ": the op run wrote a file larger than --max-file-mb\n";
    status = 3;
  } else if (status > 128) {
    out += "error[internal] kgen-oprun died with signal " + std::to_string(status - 128) + " (out of memory under --memory-mb?)\n";
    status = 1;
  }
  if (!o.json) {
    (status == 0 ? std::cout : std::cerr) << out << std::flush;
    return status;
  }
  std::cerr << out << std::flush;
  nlohmann::json j;
  if (status == 0 && !json_file.empty()) {
    try {
      std::ifstream in(json_file);
      j = nlohmann::json::parse(in);
    } catch (...) {
      j = nlohmann::json::object();
    }
  }
  j["ok"] = status == 0;
  j["exit"] = status;
  j["errors"] = errors_of(out);
  j["seconds"] = r.seconds;
  if (!json_file.empty()) fs::remove(json_file);
  std::cout << j.dump(2) << "\n";
  return status;
}
}  // namespace

CLI::App* add_op_command(CLI::App& app, int& exit_code) {
  auto* op = app.add_subcommand("op", "Operator projects (CANN op_host + op_kernel) and MultiKernelBench submissions");
  op->require_subcommand(1);
  static OpRunOptions o;
  auto* run = op->add_subcommand("run", "Build an op project (cached), run InferShape, TilingFunc and the kernel on the "
                                        "emulator, write the outputs as .npy");
  run->add_option("project", o.project, "Op project directory (msopgen layout or the three files side by side)")->required();
  run->add_option("files", o.positional, "Input .npy files in OpDef input order (instead of --input)");
  run->add_option("--input", o.inputs, "NAME=FILE.npy, one per OpDef input (positional FILE.npy in OpDef order also works)");
  run->add_option("--attr", o.attrs, "NAME=VALUE (lists: 1,2,3; list of lists: 1,2;3,4); defaults from the OpDef");
  run->add_option("--out", o.out, "Directory for the outputs (<output name>.npy)")->required();
  run->add_option("--soc", o.soc, "SoC profile (Ascend910B1..4, Ascend310P3)")->capture_default_str();
  run->add_option("--output-shape", o.output_shapes, "NAME=D0,D1,... (instead of the project's InferShape)");
  run->add_option("--op", o.op, "Operator type, when the host file registers several");
  run->add_option("--timeout", o.timeout, "Wall-clock limit in seconds for build and run")->capture_default_str();
  run->add_option("--memory-mb", o.memory_mb, "Address-space limit of the runner process (MiB)")->capture_default_str();
  run->add_option("--max-file-mb", o.file_mb, "Largest file the runner may write (MiB)")->capture_default_str();
  run->add_flag("--json", o.json, "Print a JSON summary (outputs, shapes, dtypes, block_dim, tiling_key, errors) on stdout");
  run->callback([&exit_code] { exit_code = run_op(o); });
  return op;
}
}  // namespace kgen::cli
