// Which kernels are built per core type, and their builds (core_type_builds.h).
#include "op/core_type_builds.h"
#include "op/source_text.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace kgen::op {
namespace {
std::string read_file(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool text_uses_core_type_constant(const std::string& text) {
  static const std::regex constant(
      R"([<,=]\s*g_coreType\s*[>,]|\bconstexpr\b[^;{]*\bg_coreType\b|\bstatic_assert\s*\([^;]*\bg_coreType\b)");
  return text.find("g_coreType") != std::string::npos && std::regex_search(without_comments(text), constant);
}
}  // namespace

bool uses_core_type_constant(const std::string& kernel_cpp) {
  if (kernel_cpp.empty()) return false;
  const fs::path kernel = kernel_cpp;
  if (text_uses_core_type_constant(read_file(kernel))) return true;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(kernel.parent_path(), ec)) {
    const std::string ext = e.path().extension().string();
    if (e.is_regular_file(ec) && (ext == ".h" || ext == ".hpp") && text_uses_core_type_constant(read_file(e.path())))
      return true;
  }
  return false;
}

std::vector<Defines> kernel_builds(const Project& p, const std::string& soc, const Defines& defines) {
  // The 310P's AI Core is coupled (cube and vector in one core): one build, as there.
  if (soc.rfind("Ascend310P", 0) == 0 || !p.core_type_builds) return {defines};
  Defines aic = defines, aiv = defines;
  aic.emplace_back(kCoreTypeMacro, "1");
  aiv.emplace_back(kCoreTypeMacro, "2");
  return {aic, aiv};
}
}  // namespace kgen::op
