#include "cli/cc.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/aicore_attribute.h"
#include "cli/bisheng_rules.h"
#include "cli/launch_rewrite.h"
#include "cli/clang_compat.h"
#include "op/build.h"
#include "sandbox/process.h"
#include "sandbox/paths.h"

namespace kgen::cli {
using sandbox::paths;
using sandbox::Paths;
namespace fs = std::filesystem;

int arch_of_soc(const std::string& soc) {
  if (soc == "Ascend910B1" || soc == "Ascend910B2" || soc == "Ascend910B3" || soc == "Ascend910B4") return 2201;
  if (soc == "Ascend310P3") return 2002;
  return 0;
}

namespace {
bool is_source(const std::string& a) {
  for (const char* ext : {".cpp", ".cc", ".cxx", ".c++", ".asc"})
    if (a.size() > std::string(ext).size() && a.compare(a.size() - std::string(ext).size(), std::string::npos, ext) == 0)
      return true;
  return false;
}
bool ends_with(const std::string& a, const char* e) {
  std::string s(e);
  return a.size() >= s.size() && a.compare(a.size() - s.size(), std::string::npos, s) == 0;
}
}  // namespace

std::vector<std::string> cc_command(const CcOptions& o, const std::string& tmp_dir, std::string& error) {
  const Paths& p = paths();
  int arch = arch_of_soc(o.soc);
  if (!arch) {
    error = "unknown SoC '" + o.soc + "' (known: Ascend910B1, Ascend910B2, Ascend910B3, Ascend910B4, Ascend310P3)";
    return {};
  }
  bool link = true, has_std = false, has_opt = false;
  for (const auto& a : o.args) {
    if (a == "-c" || a == "-S" || a == "-E" || a == "-fsyntax-only" || a == "-M" || a == "-MM") link = false;
    if (a.rfind("-std=", 0) == 0) has_std = true;
    if (a.rfind("-O", 0) == 0) has_opt = true;
  }
  std::vector<std::string> cmd = {"g++"};
  if (!has_std) cmd.push_back("-std=c++20");
  if (!has_opt) cmd.push_back("-O1");
  cmd.push_back("-I" + p.include_dir);
  cmd.push_back("-DASCENDC_CPU_DEBUG=1");
  cmd.push_back("-D__NPU_ARCH__=" + std::to_string(arch));
  // bisheng's AI Core version macro: the SoC's AIC_version (AIC-C-220 on the 910B, AIC-C-200 on the 310P), which
  // kernels test as `#if __CCE_AICORE__ == 220` (docs/sources.md S53).
  cmd.push_back(std::string("-D__CCE_AICORE__=") + (arch == 2201 ? "220" : "200"));
  cmd.push_back("-DKGEN_SOC=\"" + o.soc + "\"");
  for (const auto& a : o.args) {
    if (!is_source(a) || !fs::exists(a)) { cmd.push_back(a); continue; }
    std::ifstream in(a, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    bool changed = false;
    std::string text = rewrite_defaulted_constructors(
        rewrite_member_specializations(rewrite_aicore_attribute(rewrite_launches(ss.str(), changed), changed), changed),
        changed);
    bool asc = ends_with(a, ".asc");
    if (!changed && !asc) { cmd.push_back(a); continue; }
    fs::create_directories(tmp_dir);
    fs::path orig = fs::absolute(a);
    fs::path copy = fs::path(tmp_dir) / (orig.filename().string() + ".cpp");
    std::ofstream out(copy, std::ios::binary);
    out << "#line 1 \"" << a << "\"\n" << text;
    out.close();
    cmd.push_back("-iquote");
    cmd.push_back(orig.parent_path().string());
    cmd.push_back(copy.string());
  }
  if (link) {
    cmd.push_back(op::kFastLinker);
    cmd.push_back("-L" + p.lib_dir);
    cmd.push_back("-Wl,-rpath," + p.lib_dir);
    cmd.push_back("-lkgen_sim");
  }
  return cmd;
}

int run_cc(const CcOptions& o) {
  // What bisheng refuses and g++ would accept stops the build first, in g++'s format (bisheng_rules.h).
  size_t findings = 0;
  for (const auto& a : o.args) {
    if (!is_source(a) || !fs::exists(a)) continue;
    for (const RuleFinding& f : check_bisheng_rules_file(a)) {
      std::cerr << format_finding(f);
      ++findings;
    }
  }
  if (findings) return 1;
  char tmpl[] = "/tmp/kgen-cc-XXXXXX";
  const char* dir = mkdtemp(tmpl);
  std::string tmp_dir = dir ? dir : "/tmp";
  std::string error;
  std::vector<std::string> cmd = cc_command(o, tmp_dir, error);
  if (cmd.empty()) {
    std::cerr << "kgen cc: " << error << "\n";
    return 2;
  }
  if (o.verbose) {
    for (const auto& a : cmd) std::cerr << a << " ";
    std::cerr << "\n";
  }
  sandbox::Child c;
  c.argv = cmd;
  c.inherit_stdio = true;   // g++'s messages go straight to the terminal, as with g++ itself
  sandbox::Result r = sandbox::run(c, sandbox::Limits{});
  if (r.status < 0 || r.status == 127) std::cerr << "kgen cc: cannot run g++: " << r.start_error << "\n";
  std::error_code ec;
  if (dir) fs::remove_all(tmp_dir, ec);
  return r.status < 0 ? 1 : r.status > 128 ? 1 : r.status;
}
}  // namespace kgen::cli
