// `kgen op run-mkb SUBMISSION.py --task REFERENCE.py`: runs a MultiKernelBench AscendC submission (six strings)
// against its reference task. The work is done by python/kgen_mkb/run_mkb.py under Debian's /usr/bin/python3 (it has
// PyTorch): extraction of the op project, the torch_npu shim, the generated custom_ops_lib whose functions call
// `kgen-oprun call` (the binding compiled against kgen's torch shim, the op run on the emulator). This command
// starts it as a child process with a time limit and relays its output and exit status.
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "cli/op_cmd.h"
#include "cli/paths.h"

namespace kgen::cli {
namespace {
namespace fs = std::filesystem;

struct MkbOpts {
  std::string submission, task, soc = "Ascend910B2", work, python = "/usr/bin/python3";
  int seed = 1024, trials = 5;
  double atol = 1e-4, rtol = 1e-4, timeout = 900;
  bool json = false;
};

std::string exe_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(".") : exe.parent_path().string();
}

std::string fmt_double(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

int run_mkb(const MkbOpts& o) {
  std::error_code ec;
  if (!fs::is_regular_file(o.submission, ec)) {
    std::fprintf(stderr, "error: %s: no such submission file\n", o.submission.c_str());
    return 2;
  }
  if (!fs::is_regular_file(o.task, ec)) {
    std::fprintf(stderr, "error: %s: no such task file (a KernelBench-format reference: class Model, get_inputs(), "
                 "get_init_inputs())\n", o.task.c_str());
    return 2;
  }
  std::string oprun = exe_dir() + "/kgen-oprun";
  if (!fs::exists(oprun, ec)) oprun = paths().lib_dir + "/kgen-oprun";
  if (!fs::exists(oprun, ec)) {
    std::fprintf(stderr, "error[internal] kgen-oprun not found next to kgen (%s)\n", exe_dir().c_str());
    return 1;
  }
  std::string driver = paths().source_dir + "/python/kgen_mkb/run_mkb.py";
  if (!fs::exists(driver, ec)) {
    std::fprintf(stderr, "error[internal] %s not found\n", driver.c_str());
    return 1;
  }
  if (access(o.python.c_str(), X_OK) != 0) {
    std::fprintf(stderr, "error: %s not found: run-mkb needs Debian's python3 with PyTorch and NumPy "
                 "(apt install python3-torch python3-numpy)\n", o.python.c_str());
    return 2;
  }
  std::string work = o.work;
  bool temp_work = work.empty();
  if (temp_work) {
    std::string tmpl = (fs::temp_directory_path(ec) / "kgen-mkb-XXXXXX").string();
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back(0);
    if (!mkdtemp(buf.data())) {
      std::perror("kgen: mkdtemp");
      return 1;
    }
    work = buf.data();
  } else {
    fs::create_directories(work, ec);
  }
  std::vector<std::string> argv = {o.python, "-B", driver, o.submission, "--task", o.task, "--oprun", oprun,
                                   "--work", fs::absolute(work).string(), "--soc", o.soc,
                                   "--seed", std::to_string(o.seed), "--trials", std::to_string(o.trials),
                                   "--atol", fmt_double(o.atol), "--rtol", fmt_double(o.rtol)};
  if (o.json) argv.push_back("--json");
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    std::perror("kgen: fork");
    return 1;
  }
  if (pid == 0) {
    setpgid(0, 0);
    // No network for the submission (its model_src and kernels run in this process tree): a network namespace of
    // its own, as run_process(ProcLimits::no_network) does.
    if (unshare(CLONE_NEWNET) != 0) unshare(CLONE_NEWUSER | CLONE_NEWNET);
    std::vector<char*> a;
    for (auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
    a.push_back(nullptr);
    execv(a[0], a.data());
    std::fprintf(stderr, "kgen: cannot run %s\n", a[0]);
    _exit(127);
  }
  setpgid(pid, pid);
  auto t0 = std::chrono::steady_clock::now();
  int st = 0;
  bool timed_out = false;
  for (;;) {
    pid_t r = waitpid(pid, &st, WNOHANG);
    if (r == pid) break;
    if (r < 0) { st = 0; break; }
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > o.timeout) {
      timed_out = true;
      kill(-pid, SIGKILL);
      waitpid(pid, &st, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (temp_work) fs::remove_all(work, ec);
  if (timed_out) {
    std::fprintf(stderr, "error[timeout] %s: the submission did not finish within %.0f s (--timeout) — a kernel that "
                 "never ends, or a task too large for the emulator\n", o.submission.c_str(), o.timeout);
    return 3;
  }
  if (WIFSIGNALED(st)) {
    std::fprintf(stderr, "error[internal] the run-mkb driver died with signal %d\n", WTERMSIG(st));
    return 1;
  }
  return WEXITSTATUS(st);
}
}  // namespace

void add_op_mkb_cmd(CLI::App* op, int& exit_code) {
  auto o = std::make_shared<MkbOpts>();
  auto* c = op->add_subcommand(
      "run-mkb", "Run a MultiKernelBench AscendC submission (six strings) against its reference task on the emulator");
  c->add_option("submission", o->submission, "the submission .py (project_json_src, host_tiling_src, "
                "host_operator_src, kernel_src, python_bind_src, model_src)")->required();
  c->add_option("--task", o->task, "the reference task .py (KernelBench format: Model, get_inputs, get_init_inputs)")
      ->required();
  c->add_option("--soc", o->soc, "SoC profile (default Ascend910B2)");
  c->add_option("--seed", o->seed, "torch.manual_seed before Model(*init) and ModelNew(*init) (default 1024, as "
                "MultiKernelBench)");
  c->add_option("--trials", o->trials, "calls of get_inputs() compared (default 5)");
  c->add_option("--atol", o->atol, "absolute tolerance of torch.allclose (default 1e-4, MultiKernelBench's)");
  c->add_option("--rtol", o->rtol, "relative tolerance (default 1e-4)");
  c->add_option("--timeout", o->timeout, "seconds before the run is stopped (default 900)");
  c->add_option("--work", o->work, "keep the extracted project and generated files in this directory");
  c->add_option("--python", o->python, "the python with PyTorch (default /usr/bin/python3)");
  c->add_flag("--json", o->json, "print a JSON report");
  c->callback([o, &exit_code] { exit_code = run_mkb(*o); });
}
}  // namespace kgen::cli
