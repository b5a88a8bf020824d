#include "op/project.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

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

std::string snake_case(const std::string& t) {
  std::string s;
  for (size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (std::isupper(static_cast<unsigned char>(c))) {
      bool prev_lower = i > 0 && (std::islower(static_cast<unsigned char>(t[i - 1])) || std::isdigit(static_cast<unsigned char>(t[i - 1])));
      bool next_lower = i + 1 < t.size() && std::islower(static_cast<unsigned char>(t[i + 1]));
      bool prev_upper = i > 0 && std::isupper(static_cast<unsigned char>(t[i - 1]));
      if (i > 0 && (prev_lower || (prev_upper && next_lower))) s += '_';
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      s += c;
    }
  }
  return s;
}

namespace {
bool includes(const std::string& text, const std::string& header) {
  return std::regex_search(text, std::regex("#\\s*include\\s*[<\"]" + header + "[>\"]"));
}
std::vector<fs::path> files_in(const fs::path& d, const char* ext) {
  std::vector<fs::path> r;
  std::error_code ec;
  for (auto& e : fs::directory_iterator(d, ec))
    if (e.is_regular_file() && e.path().extension() == ext) r.push_back(e.path());
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
  std::string e = pick(files_in(hd, ".cpp"), "register/op_def_registry.h", "host (op_host)", hd, p.host_cpp);
  if (!e.empty()) return e;
  e = pick(files_in(kd, ".cpp"), "kernel_operator.h", "kernel (op_kernel)", kd, p.kernel_cpp);
  if (!e.empty()) return e;
  // Tiling header: the local header(s) the host includes; the one with BEGIN_TILING_DATA_DEF wins.
  std::vector<fs::path> hs = files_in(hd, ".h");
  std::string host_text = read_text(p.host_cpp);
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
}  // namespace kgen::op
