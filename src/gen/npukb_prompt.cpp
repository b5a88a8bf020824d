// The prompt variables of an NPUKernelBench task folder (npukb_prompt.h).
#include "gen/npukb_prompt.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "op/project.h"

namespace fs = std::filesystem;

namespace kgen::gen {
namespace {
constexpr size_t kMaxCaseRows = 60;   // a CSV longer than this is cut: the rows shown are the format, not the data

bool read_whole(const fs::path& p, std::string& out) {
  std::ifstream f(p, std::ios::binary);
  if (!f) return false;
  std::ostringstream s;
  s << f.rdbuf();
  out = s.str();
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r' || out.back() == ' ')) out.pop_back();
  return true;
}

std::string cut_rows(const std::string& csv) {
  std::istringstream in(csv);
  std::string out, line;
  size_t n = 0, total = 0;
  while (std::getline(in, line)) {
    if (++total <= kMaxCaseRows + 1) out += line + "\n";   // the header and the first rows
  }
  n = total > 0 ? total - 1 : 0;
  if (n > kMaxCaseRows) out += fmt::format("... ({} more rows of {} cases)\n", n - kMaxCaseRows, n);
  return out;
}
}  // namespace

bool npukb_task_vars(const std::string& folder, std::map<std::string, std::string>& v, std::string& err) {
  const fs::path dir = folder, val = dir / "validation";
  const std::string name = dir.filename().string();
  const std::string op_type = name.substr(0, name.find('_'));
  v["op_name"] = op_type;
  v["op_type"] = op_type;
  v["kernel_name"] = op::snake_case(op_type);   // as CANN names the kernel file
  const std::pair<const char*, fs::path> files[] = {{"module_source", val / "module.py"},
                                                    {"pybind_source", val / "pybind.cpp"},
                                                    {"api_desc", dir / "api_desc.md"},
                                                    {"test_cases", val / "test_cases.csv"}};
  for (const auto& [key, path] : files)
    if (!read_whole(path, v[key])) {
      err = fmt::format("{}: cannot read it (an NPUKernelBench task folder has api_desc.md and validation/"
                        "{{module.py, test_cases.csv, pybind.cpp}})", path.string());
      return false;
    }
  v["test_cases"] = cut_rows(v["test_cases"]);
  v["task_source"] = v["module_source"];
  if (!read_whole(val / "prepare_inputs.py", v["prepare_source"]))
    v["prepare_source"] = "# no prepare_inputs.py: module.py defines get_inputs / get_init_inputs";
  // question/: the skeleton NPUKernelBench gives the model (an OpDef with its dtypes, an empty kernel).
  std::vector<fs::path> skel;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir / "question", ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec)) skel.push_back(it->path());
  std::sort(skel.begin(), skel.end());
  std::string s;
  for (const fs::path& p : skel) {
    std::string text;
    if (!read_whole(p, text)) continue;
    s += fmt::format("```cpp {}\n{}\n```\n\n", fs::relative(p, dir / "question").string(), text);
  }
  v["skeleton"] = s.empty() ? "(this task gives no skeleton: write the whole project)" : s;
  return true;
}
}  // namespace kgen::gen
