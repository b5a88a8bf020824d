// Building a binding against kgen's torch shim (see bind_build.h).
#include "op/bind_build.h"

#include <algorithm>
#include <filesystem>
#include <vector>

#include "op/build.h"
#include "op/project.h"
#include "sandbox/digest.h"
#include "sandbox/paths.h"

namespace kgen::op {
namespace {
namespace fs = std::filesystem;

std::string shim_dir() { return kgen::sandbox::paths().source_dir + "/include/torch_shim"; }
std::string src_dir() { return kgen::sandbox::paths().source_dir + "/src"; }
}  // namespace

Origin origin_of(const std::string& bind_text, const std::string& bind_path) {
  Origin o{bind_path, 0};
  std::smatch m;
  static const std::regex re(R"re(^#line (\d+) "([^"]+)")re");
  if (std::regex_search(bind_text, m, re) && m.position(0) == 0) {
    o.line = std::stoi(m[1].str());
    o.file = m[2].str();
  }
  return o;
}
int bind_line(const std::string& text, const Origin& o, const std::regex& re) {
  std::smatch m;
  if (!std::regex_search(text, m, re)) return 0;
  int nl = static_cast<int>(std::count(text.begin(), text.begin() + m.position(0), '\n'));
  return o.line ? o.line + nl - 1 : nl + 1;
}


namespace {
// g++'s "FILE:LINE:COL:   required from here" line in `file` (LINE is the match's group 1).
std::regex required_from(const std::string& file) {
  return std::regex("(?:^|\\n)" + std::regex_replace(file, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
                    R"(:(\d+):\d+:\s+required from here)");
}

// ", and it includes <ATen/X.h>, which the shim lacks: ..." for the PyTorch headers the binding includes that the
// shim does not provide (the compiler then reads the system's real PyTorch header, which conflicts with the shim);
// "" when there are none.
std::string unshimmed_torch_headers(const std::string& bind_text) {
  static const std::regex inc(R"re(#\s*include\s*[<"]((?:ATen|c10|torch|caffe2)/[^>"]+)[>"])re");
  std::string names;
  for (auto it = std::sregex_iterator(bind_text.begin(), bind_text.end(), inc); it != std::sregex_iterator(); ++it)
    if (!fs::exists(shim_dir() + "/" + (*it)[1].str())) names += (names.empty() ? "<" : ", <") + (*it)[1].str() + ">";
  if (names.empty()) return "";
  return ", and it includes " + names +
         ", which the shim does not provide: the system's real PyTorch header is read instead and conflicts with the "
         "shim (include what a binding needs: torch/extension.h, torch/library.h, ATen/ATen.h)";
}

// The compiler's output for a binding that does not compile: a PyTorch fallback (an ATen compute call) is
// error[submission] at the call's line; anything else error[compile] at the first error.
std::string bind_diag(const std::string& out, const Origin& o, const std::string& bind_path, const std::string& bind_text) {
  std::smatch m;
  if (out.find("kgen-aten-fallback") != std::string::npos) {
    static const std::regex fn(R"(python_bind_src calls (at::\w+))");
    std::string name = std::regex_search(out, m, fn) ? m[1].str() : "an ATen function";
    // The call site: the first "required from here" (or error) line in the submission itself.
    std::string where = o.file;
    if (std::regex_search(out, m, required_from(o.file))) where = o.file + ":" + m[1].str();
    return "error[submission] " + where + ": python_bind_src calls " + name +
           ", a PyTorch computation on the host (a fallback, not a kernel) — compute in the AscendC kernel and call "
           "it with EXEC_NPU_CMD; kgen's torch shim provides allocation (at::empty, empty_like, zeros...) and "
           "layout (view, reshape, transpose, contiguous...) only\n";
  }
  static const std::regex re(R"((?:^|\n)([^\s:][^:\n]*):(\d+):(?:\d+:)? (?:fatal )?error: ([^\n]*))");
  std::string head;
  if (std::regex_search(out, m, re)) {
    // An error inside the shim's headers (a static_assert torch also makes) belongs to the submission's line
    // that instantiated it.
    std::string where = m[1].str() + ":" + m[2].str(), msg = m[3].str();
    std::smatch here;
    if (!o.file.empty() && m[1].str() != o.file &&
        std::regex_search(out, here, required_from(o.file)))
      where = o.file + ":" + here[1].str();
    head = "error[compile] " + where + ": " + msg +
           " — python_bind_src does not compile against kgen's torch shim (include/torch_shim: the part of ATen, "
           "pybind11 and torch_npu a binding needs)" + unshimmed_torch_headers(bind_text) +
           "; the compiler's messages follow";
  } else
    head = "error[compile] " + (o.file.empty() ? bind_path : o.file) +
           ": python_bind_src does not build (the compiler output follows)";
  return head + "\n" + out + (out.empty() || out.back() == '\n' ? "" : "\n");
}

}  // namespace

BindBuild build_bind(const std::string& bind_path) {
  BindBuild b;
  std::string text = read_text(bind_path);
  Origin o = origin_of(text, bind_path);
  std::string entry = shim_dir() + "/kgen_bind_entry.cpp";
  std::vector<std::string> cmd = {"g++", "-std=c++17", "-O1", "-fPIC", "-shared", kFastLinker, "-w", "-I" + shim_dir(),
                                  "-I" + src_dir(), "-DTORCH_EXTENSION_NAME=custom_ops_lib", bind_path, entry};
  kgen::Digest h;   // the binding library's cache key (sandbox/digest.h): its text, not where the file is
  h.add("bind-v2");
  h.add(text);
  for (auto& a : cmd)
    if (a != bind_path) h.add(a);
  // The shim's own sources (all headers under include/torch_shim) and the boundary header.
  std::error_code ec;
  std::vector<fs::path> shim_files;
  for (auto it = fs::recursive_directory_iterator(shim_dir(), ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec)) shim_files.push_back(it->path());
  std::sort(shim_files.begin(), shim_files.end());
  for (auto& f : shim_files) h.add(f.string()).add(read_text(f.string()));
  h.add(read_text(src_dir() + "/op/aclnn_call.h"));
  BuildOut r = compile_library("bind-" + h.hex(32) + ".so", cmd, {fs::path(bind_path).parent_path().string()},
                               bind_path, "python_bind_src");
  if (!r.ok) {
    b.diag = r.diag.rfind("error[compile]", 0) == 0
                 ? bind_diag(r.diag.substr(r.diag.find('\n') + 1), o, bind_path, text)
                 : r.diag;
    b.exit = r.diag.rfind("error[internal]", 0) == 0 ? 1 : 3;
    return b;
  }
  b.ok = true;
  b.so = r.so;
  return b;
}
}  // namespace kgen::op
