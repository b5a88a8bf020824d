#include "op/project.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "op/core_type_builds.h"

namespace kgen::op {
namespace fs = std::filesystem;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int find_line(const std::string& path, const std::string& regex) {
  std::string text = read_text(path);
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(regex))) return 0;
  int line = 1;
  for (long i = 0; i < m.position(0); ++i)
    if (text[static_cast<size_t>(i)] == '\n') ++line;
  return line;
}

std::vector<std::string> kernel_functions(const std::string& kernel_cpp) {
  std::string text = read_text(kernel_cpp);
  std::vector<std::string> names;
  std::regex re(R"(extern\s+"C"\s+((?:__global__|__aicore__|void|inline|\s)+)\s*(\w+)\s*\()");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
    if ((*it)[1].str().find("__global__") == std::string::npos) continue;
    names.push_back((*it)[2].str());
  }
  return names;
}

namespace {
bool includes(const std::string& text, const std::string& header) {
  return std::regex_search(text, std::regex("#\\s*include\\s*[<\"]" + header + "[>\"]"));
}
std::vector<fs::path> files_in(const fs::path& d, const char* ext, const char* ext2 = nullptr) {
  std::vector<fs::path> r;
  std::error_code ec;
  for (auto& e : fs::directory_iterator(d, ec))
    if (e.is_regular_file() && (e.path().extension() == ext || (ext2 && e.path().extension() == ext2)))
      r.push_back(e.path());
  std::sort(r.begin(), r.end());
  return r;
}
std::string list(const std::vector<fs::path>& v) {
  std::string s;
  for (auto& p : v) s += (s.empty() ? "" : ", ") + p.filename().string();
  return s.empty() ? "none" : s;
}
// The one file of `cands` whose text includes `header`; error text otherwise.
std::string pick(const std::vector<fs::path>& cands, const std::string& header, const char* role, const fs::path& where,
                 std::string& out) {
  std::vector<fs::path> hit;
  for (auto& c : cands)
    if (includes(read_text(c.string()), header)) hit.push_back(c);
  if (hit.size() == 1) { out = hit[0].string(); return ""; }
  if (hit.empty())
    return std::string("no ") + role + " file in " + where.string() + ": none of the .cpp files (" + list(cands) +
           ") includes \"" + header + "\"";
  return std::string("ambiguous ") + role + " file in " + where.string() + ": " + list(hit) + " all include \"" +
         header + "\"; keep one op per project";
}
// The aclnn layer of a cann-ops project (the L2 API and its L0 ops over CANN's opdev framework): kgen's generated
// aclnn call stands in for it.
bool aclnn_layer(const fs::path& f) {
  const std::string n = f.stem().string(), e = f.extension().string();
  if (e != ".cpp" && e != ".cc" && e != ".h") return false;
  return n.rfind("aclnn_", 0) == 0 || (n.size() > 3 && n.compare(n.size() - 3, 3, "_l0") == 0);
}
// The op types a text registers with OP_ADD(Type).
std::vector<std::string> op_adds(const std::string& text) {
  std::vector<std::string> r;
  static const std::regex re(R"(\bOP_ADD\s*\(\s*(\w+)\s*\))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
    r.push_back((*it)[1].str());
  return r;
}
// msopgen layout: the host file is the one that registers the OpDef; all of op_host/ but the aclnn layer is built.
std::string pick_msopgen_host(const fs::path& hd, Project& p, std::string& op_type) {
  std::vector<fs::path> all = files_in(hd, ".cpp", ".cc"), defs;
  for (auto& f : all) {
    if (aclnn_layer(f)) continue;
    p.host_sources.push_back(f.string());
    std::vector<std::string> ops = op_adds(read_text(f.string()));
    if (!ops.empty()) {
      defs.push_back(f);
      op_type = ops[0];
    }
  }
  if (defs.size() > 1)
    return "ambiguous host (op_host) file in " + hd.string() + ": " + list(defs) +
           " all register an OpDef with OP_ADD; keep one op per project";
  if (defs.empty()) {   // no OP_ADD anywhere: the single file that includes op_def_registry.h, as before
    std::vector<fs::path> cands;
    for (auto& f : all)
      if (!aclnn_layer(f)) cands.push_back(f);
    std::string e = pick(cands, "register/op_def_registry.h", "host (op_host)", hd, p.host_cpp);
    if (!e.empty()) return e;
  } else {
    p.host_cpp = defs[0].string();
  }
  // host_cpp first: its diagnostics and line lookups are the OpDef's
  std::stable_partition(p.host_sources.begin(), p.host_sources.end(), [&](const std::string& f) { return f == p.host_cpp; });
  return "";
}

// Whether CMakeLists.txt (cann-ops layout) splits the built host files over CANN's libraries: no target_sources
// target lists them all (target_sources(optiling PRIVATE op_host/x.cpp) ...).
bool split_over_libraries(const fs::path& dir, const std::vector<std::string>& host_sources) {
  const std::string text = read_text((dir / "CMakeLists.txt").string());
  static const std::regex call(R"(\btarget_sources\s*\(\s*(\w+)([^)]*)\))"), file(R"(op_host/[\w.]+)");
  std::map<std::string, std::set<std::string>> files_of;   // target -> op_host/<file>
  for (auto it = std::sregex_iterator(text.begin(), text.end(), call); it != std::sregex_iterator(); ++it) {
    const std::string args = (*it)[2].str();
    for (auto f = std::sregex_iterator(args.begin(), args.end(), file); f != std::sregex_iterator(); ++f)
      files_of[(*it)[1].str()].insert(f->str());
  }
  if (files_of.empty()) return false;   // no CMake listing: one library, as kgen builds it
  for (const auto& [target, files] : files_of) {
    bool all = true;
    for (const std::string& h : host_sources)
      all = all && files.count("op_host/" + fs::path(h).filename().string());
    if (all) return false;
  }
  return true;
}
}  // namespace

std::string find_project(const std::string& dir_in, Project& p) {
  std::error_code ec;
  fs::path dir = fs::absolute(dir_in, ec).lexically_normal();
  if (dir.has_filename() == false && dir.has_parent_path()) dir = dir.parent_path();   // "P/" -> "P"
  if (!fs::is_directory(dir, ec)) return "op project " + dir_in + " is not a directory";
  p = Project{};
  p.dir = dir.string();
  fs::path hd = dir, kd = dir;
  if (fs::is_directory(dir / "op_host") || fs::is_directory(dir / "op_kernel")) {
    if (!fs::is_directory(dir / "op_host")) return "msopgen layout in " + dir_in + ": op_kernel/ exists but op_host/ is missing";
    if (!fs::is_directory(dir / "op_kernel")) return "msopgen layout in " + dir_in + ": op_host/ exists but op_kernel/ is missing";
    p.msopgen = true;
    hd = dir / "op_host";
    kd = dir / "op_kernel";
  }
  std::string op_type, e;
  if (p.msopgen) {
    e = pick_msopgen_host(hd, p, op_type);
    p.host_split_over_libraries = p.host_sources.size() > 1 && split_over_libraries(dir, p.host_sources);
  } else {
    e = pick(files_in(hd, ".cpp"), "register/op_def_registry.h", "host (op_host)", hd, p.host_cpp);
    p.host_sources = {p.host_cpp};
  }
  if (!e.empty()) return e;
  if (!op_type.empty() && fs::is_regular_file(kd / (snake_case(op_type) + ".cpp"), ec)) {
    p.kernel_cpp = (kd / (snake_case(op_type) + ".cpp")).string();   // the file CANN's build compiles
  } else {
    e = pick(files_in(kd, ".cpp"), "kernel_operator.h", "kernel (op_kernel)", kd, p.kernel_cpp);
    if (!e.empty()) return e;
  }
  p.core_type_builds = uses_core_type_constant(p.kernel_cpp);
  // Tiling header: the local header(s) the host includes; the one with BEGIN_TILING_DATA_DEF wins.
  std::vector<fs::path> hs = files_in(hd, ".h");
  std::string host_text;   // every host file: the tiling header is included where the TilingFunc is
  for (const std::string& f : p.host_sources) host_text += read_text(f);
  std::vector<fs::path> with_def, included;
  for (auto& h : hs) {
    std::string t = read_text(h.string());
    bool inc = includes(host_text, h.filename().string());
    if (t.find("BEGIN_TILING_DATA_DEF") != std::string::npos) with_def.push_back(h);
    if (inc) included.push_back(h);
  }
  if (with_def.size() == 1) p.tiling_h = with_def[0].string();
  else if (with_def.size() > 1) {
    std::vector<fs::path> inc_def;
    for (auto& h : with_def)
      if (std::find(included.begin(), included.end(), h) != included.end()) inc_def.push_back(h);
    if (inc_def.size() != 1)
      return "ambiguous tiling header in " + hd.string() + ": " + list(with_def) +
             " all define BEGIN_TILING_DATA_DEF; keep one, or include exactly one of them from " +
             fs::path(p.host_cpp).filename().string();
    p.tiling_h = inc_def[0].string();
  } else if (included.size() == 1) {
    p.tiling_h = included[0].string();
  }
  std::vector<fs::path> js = files_in(dir, ".json");
  if (js.size() == 1) p.json = js[0].string();
  return "";
}
bool aclnn_layer_file(const std::string& path) { return aclnn_layer(fs::path(path)); }
}  // namespace kgen::op
