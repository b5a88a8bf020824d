// Task arguments given as files or suite ids (task_arg.h).
#include "cli/task_arg.h"

#include <filesystem>
#include <fmt/core.h>

#include "eval/evaluate.h"
#include "sandbox/paths.h"

namespace kgen::cli {
namespace fs = std::filesystem;

namespace {
// The folder of task id <Category>/<Op> in an NPUKernelBench checkout (ROOT/levelN/ or ROOT/tasks/levelN/), or "".
std::string npukb_task_in(const fs::path& root, const std::string& id) {
  if (id.empty() || id.find("..") != std::string::npos || fs::path(id).is_absolute()) return "";
  for (const fs::path& base : {root, root / "tasks"}) {
    std::error_code ec;
    for (auto it = fs::directory_iterator(base, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
      if (it->path().filename().string().rfind("level", 0) == 0 && eval::is_npukb_task((it->path() / id).string()))
        return fs::absolute(it->path() / id).lexically_normal().string();
  }
  return "";
}
}  // namespace

std::string default_suite() { return sandbox::paths().source_dir + "/tasks"; }

std::string resolve_task_arg(const std::string& task, const std::string& suite, std::string& err) {
  std::error_code ec;
  fs::path p = task;
  // An NPUKernelBench task folder (validation/module.py, test_cases.csv) is a task as it is.
  if (eval::is_npukb_task(p.string()))
    return fs::absolute(p).lexically_normal().string();
  if (!fs::is_regular_file(p, ec)) {
    const std::string root = suite.empty() ? default_suite() : suite;
    if (std::string f = npukb_task_in(root, task); !f.empty()) return f;
    fs::path in_suite = fs::path(root) / (task + ".py");
    if (task.empty() || fs::path(task).is_absolute() || task.find("..") != std::string::npos ||
        !fs::is_regular_file(in_suite, ec)) {
      err = fmt::format("--task {}: neither a task file nor the id of a task of the suite {} ({} does not exist); "
                        "`kgen tasks list --suite {}` shows the ids",
                        task, root, in_suite.string(), root);
      return "";
    }
    p = in_suite;
  }
  return fs::absolute(p).lexically_normal().string();
}
}  // namespace kgen::cli
