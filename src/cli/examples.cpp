#include "cli/examples.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "base/parallel.h"
#include "sandbox/paths.h"
#include "sandbox/process.h"

namespace kgen::cli {
using sandbox::paths;
using sandbox::Paths;
namespace fs = std::filesystem;

std::vector<std::string> list_examples(const std::string& dir, bool include_errors) {
  std::vector<std::string> files;
  for (const char* sub : {"", "errors"}) {
    if (*sub && !include_errors) continue;
    fs::path d = fs::path(dir) / sub;
    if (!fs::is_directory(d)) continue;
    for (const auto& e : fs::directory_iterator(d))
      if (e.is_regular_file() && e.path().extension() == ".cpp") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string expected_error(const std::string& file, int& line) {
  std::ifstream in(file);
  std::string s;
  line = 0;
  int n = 0;
  while (std::getline(in, s)) {
    ++n;
    size_t at = s.find("EXPECT-ERROR:");
    if (at == std::string::npos) continue;
    std::string cat = s.substr(at + 13);
    cat.erase(0, cat.find_first_not_of(' '));
    cat = cat.substr(0, cat.find_first_of(" \t\r"));
    line = n;
    return cat;
  }
  return "";
}

namespace {
std::string first_line(const std::string& s) {
  for (std::string::size_type start = 0; start < s.size();) {
    auto end = s.find('\n', start);
    std::string l = s.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (l.rfind("error", 0) == 0 || (l.find("error") != std::string::npos && l.rfind("warning[", 0) != 0)) return l;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  auto end = s.find('\n');
  return s.substr(0, end);
}

ExampleResult run_one(const ExamplesOptions& o, const std::string& file) {
  ExampleResult r;
  fs::path f(file);
  r.negative = f.parent_path().filename() == "errors";
  r.name = (r.negative ? "errors/" : "") + f.stem().string();
  std::string bin = (fs::path(o.work_dir) / (r.negative ? "err_" + f.stem().string() : f.stem().string())).string();
  std::string self = (fs::path(paths().lib_dir) / "kgen").string();
  sandbox::Result c = sandbox::run({self, "cc", "--soc", o.soc, file, "-o", bin}, 300);
  r.compile_s = c.seconds;
  if (c.status != 0) {
    r.detail = "compile failed: " + first_line(c.out);
    return r;
  }
  sandbox::Result x = sandbox::run({bin}, 120);
  r.run_s = x.seconds;
  if (r.negative) {
    int line = 0;
    std::string cat = expected_error(file, line);
    std::string want = "error[" + cat + "] " + f.filename().string() + ":" + std::to_string(line) + " ";
    r.ok = x.status != 0 && x.out.find(want) != std::string::npos;
    r.detail = r.ok ? first_line(x.out) : "expected '" + want + "...', got: " + first_line(x.out);
    return r;
  }
  r.ok = x.status == 0 && !x.timed_out;
  r.detail = r.ok ? "" : (x.timed_out ? "timed out" : first_line(x.out));
  return r;
}
}  // namespace

std::vector<ExampleResult> run_examples(const ExamplesOptions& o) {
  std::vector<std::string> files;
  for (const auto& f : list_examples(o.dir, o.include_errors))
    if (o.filter.empty() || f.find(o.filter) != std::string::npos) files.push_back(f);
  fs::create_directories(o.work_dir);
  std::vector<ExampleResult> results(files.size());
  parallel_for(files.size(), o.jobs, [&](size_t i) { results[i] = run_one(o, files[i]); });
  return results;
}
}  // namespace kgen::cli
