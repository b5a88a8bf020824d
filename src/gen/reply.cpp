// Extracting the candidate from a model's reply (reply.h): fenced blocks and <file> tags, robust to the shapes
// models actually produce (CRLF, ~~~ fences, longer fences, indented fences, reasoning sections, cut-off replies).
#include "gen/reply.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <vector>

namespace fs = std::filesystem;

namespace kgen::gen {
std::string trim_blanks(const std::string& s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

namespace {

// One piece of code found in the reply.
struct Block {
  std::string info;      // the fence's info string ("cpp op_host/x.cpp"), or "file" for a <file> tag
  std::string path;      // the file name given for it ("" when none)
  std::string text;
  bool complete = true;  // false: the fence or tag is never closed (the reply was cut off)
  int line = 0;          // where it starts in the reply (1-based, after CRLF normalisation)
};

std::string normalize_newlines(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\r') {
      o += '\n';
      if (i + 1 < s.size() && s[i + 1] == '\n') ++i;
    } else {
      o += s[i];
    }
  }
  return o;
}

// Drops reasoning: <think>...</think> sections, an unclosed <think> to the end, and everything before a lone
// </think> (servers that strip the opening tag).
std::string strip_thinking(std::string s) {
  size_t close = s.find("</think>"), open = s.find("<think>");
  if (close != std::string::npos && (open == std::string::npos || open > close)) s.erase(0, close + 8);
  while ((open = s.find("<think>")) != std::string::npos) {
    close = s.find("</think>", open);
    s.erase(open, close == std::string::npos ? std::string::npos : close + 8 - open);
  }
  return s;
}

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> v;
  size_t b = 0;
  while (b <= s.size()) {
    size_t e = s.find('\n', b);
    if (e == std::string::npos) {
      v.push_back(s.substr(b));
      break;
    }
    v.push_back(s.substr(b, e - b));
    b = e + 1;
  }
  return v;
}

// A fence line: optional indentation, then 3+ backticks or tildes, then the info string.
bool fence_open(const std::string& line, char& ch, size_t& len, std::string& info) {
  std::string t = trim_blanks(line);
  if (t.size() < 3 || (t[0] != '`' && t[0] != '~')) return false;
  ch = t[0];
  len = t.find_first_not_of(ch);
  if (len == std::string::npos) len = t.size();
  if (len < 3) return false;
  info = trim_blanks(t.substr(len));
  return ch != '`' || info.find('`') == std::string::npos;   // "```x```" inline code is not a fence
}

bool fence_close(const std::string& line, char ch, size_t len) {
  std::string t = trim_blanks(line);
  return t.size() >= len && t.find_first_not_of(ch) == std::string::npos;
}

const std::regex& path_token() {
  static const std::regex re(R"(([A-Za-z0-9_.\-/\\]*[A-Za-z0-9_\-]\.(cpp|cc|cxx|h|hpp|tile|json)))");
  return re;
}

// A file name in a short line: "op_host/add_custom.cpp:", "### `op_host/add_custom.cpp`", "**File: x.cpp**".
std::string path_in_line(const std::string& line) {
  std::string t = trim_blanks(line);
  if (t.empty() || t.size() > 160) return "";
  std::smatch m;
  if (!std::regex_search(t, m, path_token())) return "";
  std::string rest = m.suffix().str();
  if (std::regex_search(rest, path_token())) return "";   // two names: not a heading for one file
  return m[1].str();
}

// "cpp op_host/x.cpp", "cpp:op_host/x.cpp", "op_host/x.cpp", "cpp title=\"x.cpp\"" -> the path.
std::string path_in_info(const std::string& info) {
  std::smatch m;
  if (std::regex_search(info, m, path_token())) return m[1].str();
  return "";
}

// A first-line comment naming the file: "// op_host/x.cpp", "// file: x.cpp", "# FILE: relu.tile".
std::string path_in_first_line(const std::string& text) {
  std::string first = trim_blanks(text.substr(0, text.find('\n')));
  static const std::regex re(R"(^(//|#)\s*(?:[Ff][Ii][Ll][Ee]\s*:\s*)?(\S+)\s*$)");
  std::smatch m;
  if (!std::regex_match(first, m, re)) return "";
  std::smatch p;
  std::string cand = m[2].str();
  if (std::regex_match(cand, p, path_token())) return cand;
  return "";
}

// <file path="..."> ... </file> tags (also name=, single quotes); their text may itself be fenced.
void take_file_tags(std::string& s, std::vector<Block>& blocks) {
  static const std::regex open_re(R"(<file\s+(?:path|name)\s*=\s*["']([^"']*)["']\s*>)");
  std::string rest;
  std::smatch m;
  std::string::const_iterator from = s.cbegin();
  while (std::regex_search(from, s.cend(), m, open_re)) {
    size_t start = m.position(0) + (from - s.cbegin());
    size_t body = start + m.length(0);
    rest.append(from, s.cbegin() + start);
    Block b;
    b.info = "file";
    b.path = m[1].str();
    b.line = 1 + static_cast<int>(std::count(s.begin(), s.begin() + start, '\n'));
    size_t end = s.find("</file>", body);
    b.complete = end != std::string::npos;
    b.text = s.substr(body, b.complete ? end - body : std::string::npos);
    // a fenced body: keep what is inside the fence
    auto lines = split_lines(b.text);
    size_t first = 0;
    while (first < lines.size() && trim_blanks(lines[first]).empty()) ++first;
    char ch;
    size_t len;
    std::string info;
    if (first < lines.size() && fence_open(lines[first], ch, len, info)) {
      std::string inner;
      bool closed = false;
      for (size_t i = first + 1; i < lines.size(); ++i) {
        if (fence_close(lines[i], ch, len)) {
          closed = true;
          break;
        }
        inner += lines[i] + "\n";
      }
      b.text = inner;
      if (!closed) b.complete = false;
    } else {
      while (!b.text.empty() && b.text[0] == '\n') b.text.erase(0, 1);
    }
    blocks.push_back(b);
    from = b.complete ? s.cbegin() + end + 7 : s.cend();
  }
  rest.append(from, s.cend());
  s = rest;
}

// Leading spaces of a line (a fence indented in a list indents its content as much: that much is removed).
size_t indent_of(const std::string& line) {
  size_t n = line.find_first_not_of(' ');
  return n == std::string::npos ? line.size() : n;
}

std::vector<Block> fenced_blocks(const std::string& s) {
  std::vector<Block> blocks;
  auto lines = split_lines(s);
  for (size_t i = 0; i < lines.size(); ++i) {
    char ch;
    size_t len;
    std::string info;
    if (!fence_open(lines[i], ch, len, info)) continue;
    Block b;
    b.info = info;
    b.line = static_cast<int>(i) + 1;
    b.complete = false;
    size_t indent = indent_of(lines[i]);
    size_t j = i + 1;
    for (; j < lines.size(); ++j) {
      if (fence_close(lines[j], ch, len)) {
        b.complete = true;
        break;
      }
      b.text += lines[j].substr(std::min(indent, indent_of(lines[j]))) + "\n";
    }
    b.path = path_in_info(info);
    if (b.path.empty()) {   // a heading line just above (blank lines skipped), unless it closes another block
      size_t k = i;
      while (k > 0 && trim_blanks(lines[k - 1]).empty()) --k;
      char c2;
      size_t l2;
      std::string i2;
      if (k > 0 && !fence_open(lines[k - 1], c2, l2, i2)) b.path = path_in_line(lines[k - 1]);
    }
    if (b.path.empty()) b.path = path_in_first_line(b.text);
    blocks.push_back(b);
    i = j;
  }
  return blocks;
}

bool is_blank(const std::string& s) { return s.find_first_not_of(" \t\n") == std::string::npos; }

const std::regex& kernel_re() {
  static const std::regex re(R"((^|\n)\s*kernel\s+[A-Za-z_]\w*\s*\()");
  return re;
}

std::string base_name(const std::string& p) {
  size_t s = p.find_last_of("/\\");
  return s == std::string::npos ? p : p.substr(s + 1);
}

std::string stem_of(const std::string& p) {
  std::string b = base_name(p);
  size_t d = b.rfind('.');
  return d == std::string::npos ? b : b.substr(0, d);
}

std::string with_newline(std::string s) {
  while (!s.empty() && s[0] == '\n') s.erase(0, 1);
  while (s.size() > 1 && s[s.size() - 1] == '\n' && s[s.size() - 2] == '\n') s.pop_back();
  if (!s.empty() && s.back() != '\n') s += '\n';
  return s;
}

std::string cut_off_error(const Block& b) {
  return fmt::format("the reply was cut off inside a code block (the {} opened at line {} of the reply is never "
                     "closed): the model ran out of tokens — raise max_tokens, or ask for shorter code",
                     b.info == "file" ? "<file> tag" : "fence", b.line);
}

std::string no_block_error(const std::string& text) {
  if (is_blank(text)) return "the reply is empty (no text outside the reasoning)";
  return fmt::format("no fenced code block or <file> tag in the reply ({} characters)", text.size());
}

// A repair prompt shows the previous program after "// FILE: relu.tile" (files_text); a model that copies that line
// back would hand the tile compiler a C++ comment, so it is dropped.
std::string without_file_marker(const std::string& text) {
  static const std::regex re(R"(^\s*//\s*FILE:[^\n]*\n)");
  return std::regex_replace(text, re, "", std::regex_constants::format_first_only);
}

ParsedReply parse_tile(const std::string& text, const std::vector<Block>& blocks, const std::string& op_name) {
  ParsedReply r;
  std::string file = (op_name.empty() ? std::string("kernel") : op_name) + ".tile";
  if (!blocks.empty() && !blocks.back().complete && !is_blank(blocks.back().text)) {
    r.error = cut_off_error(blocks.back());
    return r;
  }
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) {
    if (it->complete && std::regex_search(it->text, kernel_re())) {
      r.files[file] = with_newline(without_file_marker(it->text));
      r.ok = true;
      return r;
    }
  }
  if (blocks.empty()) {
    // a bare reply that is itself a program: it begins with the kernel, its docstring or a comment
    size_t b = text.find_first_not_of(" \t\n");
    std::string t = b == std::string::npos ? "" : text.substr(b);
    bool starts = t.rfind("kernel", 0) == 0 || t.rfind("\"\"\"", 0) == 0 || t.rfind("#", 0) == 0;
    if (starts && std::regex_search(t, kernel_re())) {
      r.files[file] = with_newline(t);
      r.ok = true;
      return r;
    }
    r.error = no_block_error(text);
    return r;
  }
  r.error = fmt::format("the reply has {} code block{} but none holds a tile program (a line `kernel NAME(PARAMS) "
                        "-> (OUTPUTS):`)",
                        blocks.size(), blocks.size() == 1 ? "" : "s");
  return r;
}

enum class Role { None, Kernel, Host, Tiling };

Role classify(const std::string& text) {
  if (text.find("op_def_registry.h") != std::string::npos || text.find("OP_ADD(") != std::string::npos)
    return Role::Host;
  if (text.find("kernel_operator.h") != std::string::npos || text.find("__global__") != std::string::npos)
    return Role::Kernel;
  if (text.find("BEGIN_TILING_DATA_DEF") != std::string::npos) return Role::Tiling;
  return Role::None;
}

// A path as given by the model, made relative to the project: "relu_custom/op_host/x.cpp" -> "op_host/x.cpp".
// Empty with err for a path that leaves the project.
bool project_path(const std::string& given, std::string& out, std::string& err) {
  std::string p = given;
  for (char& c : p)
    if (c == '\\') c = '/';
  if (!p.empty() && (p[0] == '/' || (p.size() > 1 && p[1] == ':'))) {
    err = fmt::format("the reply names the file '{}', an absolute path: files of an op project are relative, "
                      "op_kernel/<op>.cpp, op_host/<op>.cpp and op_host/<op>_tiling.h",
                      given);
    return false;
  }
  for (const auto& part : split_lines(std::regex_replace(p, std::regex("/"), "\n"))) {
    if (part == "..") {
      err = fmt::format("the reply names the file '{}', which leaves the project directory (..): files of an op "
                        "project are op_kernel/<op>.cpp, op_host/<op>.cpp and op_host/<op>_tiling.h",
                        given);
      return false;
    }
  }
  for (const char* dir : {"op_kernel/", "op_host/"}) {
    size_t at = p.find(dir);
    if (at != std::string::npos && (at == 0 || p[at - 1] == '/')) {
      out = p.substr(at);
      return true;
    }
  }
  out = "";   // no op_kernel/ op_host/ directory given: the content decides
  return true;
}

// The local header the host file includes for its tiling data ("relu_custom_tiling.h"), or "".
std::string included_tiling_header(const std::string& host) {
  static const std::regex re(R"(#\s*include\s*"([^"]+\.h)\")");
  std::string any;
  for (std::sregex_iterator it(host.begin(), host.end(), re), end; it != end; ++it) {
    std::string h = (*it)[1].str();
    if (h.find('/') != std::string::npos) continue;   // register/..., tiling/platform/...: CANN's headers
    if (h.find("tiling") != std::string::npos) return h;
    if (any.empty()) any = h;
  }
  return any;
}

ParsedReply parse_ascendc(const std::string& text, const std::vector<Block>& blocks, const std::string& op_name) {
  ParsedReply r;
  if (!blocks.empty() && !blocks.back().complete && !is_blank(blocks.back().text)) {
    r.error = cut_off_error(blocks.back());
    return r;
  }
  if (blocks.empty()) {
    r.error = no_block_error(text);
    return r;
  }
  struct Found {
    std::string path, text;
    bool named = false;
  };
  Found kernel, host, tiling;
  // Every file the reply names under op_host/ or op_kernel/, by path: a CANN project may split its host (OpDef,
  // tiling, infershape) and its kernel (helpers) over several files, as CANN's CMake builds them all.
  std::map<std::string, std::string> named;
  static const std::regex entry_point(R"(__global__\s+(?:__aicore__\s+)?void\s+[A-Za-z_]\w*\s*\()");
  for (const auto& b : blocks) {   // later blocks replace earlier ones (a draft, then the fixed file)
    if (!b.complete) continue;
    std::string path, err;
    if (!b.path.empty() && !project_path(b.path, path, err)) {
      r.error = err;
      return r;
    }
    Role role = classify(b.text);
    if (role == Role::None && !path.empty()) {
      bool header = path.size() > 2 && path.compare(path.size() - 2, 2, ".h") == 0;
      role = path.rfind("op_kernel/", 0) == 0 ? Role::Kernel : header ? Role::Tiling : Role::Host;
    }
    if (role == Role::None) continue;   // prose-like snippets, shell commands, python tests
    std::string ext = b.path.empty() ? "" : fs::path(base_name(b.path)).extension().string();
    if (ext == ".json") continue;       // msopgen's description is optional; the OpDef is what counts
    Found f{path.empty() && !b.path.empty() ? base_name(b.path) : path, with_newline(b.text), !b.path.empty()};
    if (!path.empty()) named[path] = f.text;
    // Of several files of one role, the kernel is the one with the entry point and the host the one with the OpDef
    // (a helper or a tiling-only file named after it does not take their place).
    if (role == Role::Kernel && !kernel.text.empty() && std::regex_search(kernel.text, entry_point) &&
        !std::regex_search(f.text, entry_point) && kernel.path != f.path)
      continue;
    if (role == Role::Host && !host.text.empty() && host.text.find("OP_ADD(") != std::string::npos &&
        f.text.find("OP_ADD(") == std::string::npos && host.path != f.path)
      continue;
    (role == Role::Kernel ? kernel : role == Role::Host ? host : tiling) = f;
  }
  if (kernel.text.empty() && host.text.empty()) {
    r.error = fmt::format("the reply has {} code block{} but none is a file of an op project (a kernel including "
                          "kernel_operator.h, a host file including register/op_def_registry.h)",
                          blocks.size(), blocks.size() == 1 ? "" : "s");
    return r;
  }
  // the op's file stem: from the names given, else the kernel's entry point, else the task's op name
  std::string op;
  for (const Found* f : {&kernel, &host})
    if (op.empty() && f->named && !f->path.empty()) op = stem_of(f->path);
  if (op.empty()) {
    static const std::regex entry(R"(__global__\s+(?:__aicore__\s+)?void\s+([A-Za-z_]\w*)\s*\()");
    std::smatch m;
    if (std::regex_search(kernel.text, m, entry)) op = m[1].str();
  }
  if (op.empty()) op = op_name + "_custom";
  if (kernel.text.empty()) {
    r.error = fmt::format("the reply has a host file but no kernel file (op_kernel/{}.cpp with #include "
                          "\"kernel_operator.h\" and the extern \"C\" __global__ __aicore__ entry point)",
                          op);
    return r;
  }
  if (host.text.empty()) {
    r.error = fmt::format("the reply has op_kernel/{}.cpp but no host file (op_host/{}.cpp with the TilingFunc, "
                          "InferShape and the OpDef)",
                          op, op);
    return r;
  }
  auto place = [](const Found& f, const std::string& dir, const std::string& fallback) {
    if (f.path.rfind(dir, 0) == 0) return f.path;
    return dir + (f.path.empty() ? fallback : base_name(f.path));
  };
  // The other named files join the project unless they compete with the chosen ones (another entry point, OpDef or
  // tiling definition: an earlier draft under another name, which would make the project ambiguous).
  for (const auto& [path, text] : named) {
    const bool competes = std::regex_search(text, entry_point) || text.find("OP_ADD(") != std::string::npos ||
                          text.find("BEGIN_TILING_DATA_DEF") != std::string::npos;
    if (!competes) r.files[path] = text;
  }
  r.files[place(kernel, "op_kernel/", op + ".cpp")] = kernel.text;
  r.files[place(host, "op_host/", op + ".cpp")] = host.text;
  std::string wanted = included_tiling_header(host.text);
  if (!tiling.text.empty()) {
    // the name the host includes wins over the one given (a mismatch would not build)
    bool wanted_tiling = wanted.find("tiling") != std::string::npos;
    std::string name = tiling.named && !wanted_tiling ? place(tiling, "op_host/", "")
                       : !wanted.empty()              ? "op_host/" + wanted
                                                      : "op_host/" + op + "_tiling.h";
    r.files[name] = tiling.text;
  } else if (!wanted.empty() && host.text.find("BEGIN_TILING_DATA_DEF") == std::string::npos) {
    r.error = fmt::format("the host file includes \"{}\" but the reply has no tiling header (op_host/{} with "
                          "BEGIN_TILING_DATA_DEF ... REGISTER_TILING_DATA_CLASS)",
                          wanted, wanted);
    r.files.clear();
    return r;
  }
  r.ok = true;
  return r;
}

bool safe_relative(const std::string& p, std::string& err) {
  if (p.empty()) {
    err = "a file of the candidate has an empty path";
    return false;
  }
  if (p[0] == '/' || p.find('\\') != std::string::npos) {
    err = fmt::format("refusing to write '{}': candidate paths are relative, with '/' separators", p);
    return false;
  }
  for (const auto& part : split_lines(std::regex_replace(p, std::regex("/"), "\n"))) {
    if (part == ".." || part == "." || part.empty()) {
      err = fmt::format("refusing to write '{}': the path has a '{}' component (it must stay inside the candidate "
                        "directory)",
                        p, part.empty() ? "//" : part);
      return false;
    }
  }
  return true;
}
}  // namespace

ParsedReply parse_reply(const std::string& reply, Target t, const std::string& op_name) {
  std::string text = strip_thinking(normalize_newlines(reply));
  std::vector<Block> blocks;
  take_file_tags(text, blocks);
  auto fenced = fenced_blocks(text);
  if (!blocks.empty()) {
    // <file> tags are the answer; fences outside them are usually illustrations
    for (const auto& b : fenced)
      if (!b.complete && !is_blank(b.text)) blocks.push_back(b);   // still: a cut-off fence at the end counts
  } else {
    blocks = fenced;
  }
  return t == Target::Tile ? parse_tile(text, blocks, op_name) : parse_ascendc(text, blocks, op_name);
}

std::string files_text(const ParsedReply& p) {
  std::string out;
  for (const auto& [path, text] : p.files) {
    if (!out.empty()) out += "\n";
    out += "// FILE: " + path + "\n" + text;
    if (!text.empty() && text.back() != '\n') out += "\n";
  }
  return out;
}

bool write_candidate(const ParsedReply& p, Target t, const std::string& dir, std::string& candidate,
                     std::string& err) {
  if (!p.ok || p.files.empty()) {
    err = "no candidate to write: " + (p.error.empty() ? std::string("the reply had no files") : p.error);
    return false;
  }
  for (const auto& [path, _] : p.files) {
    if (!safe_relative(path, err)) return false;
    if (t == Target::Tile) {
      if (path.find('/') != std::string::npos || fs::path(path).extension() != ".tile" || p.files.size() != 1) {
        err = fmt::format("refusing to write '{}': a tile candidate is one file NAME.tile (got {} file{})", path,
                          p.files.size(), p.files.size() == 1 ? "" : "s");
        return false;
      }
    } else if ((path.rfind("op_kernel/", 0) != 0 && path.rfind("op_host/", 0) != 0) ||
               std::count(path.begin(), path.end(), '/') != 1) {
      err = fmt::format("refusing to write '{}': the files of an op project go directly in op_kernel/ or op_host/",
                        path);
      return false;
    }
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    err = fmt::format("cannot create the candidate directory {}: {}", dir, ec.message());
    return false;
  }
  for (const auto& [path, text] : p.files) {
    fs::path f = fs::path(dir) / path;
    fs::create_directories(f.parent_path(), ec);
    std::ofstream o(f, std::ios::binary | std::ios::trunc);
    o << text;
    if (!o.good()) {
      err = fmt::format("cannot write {}", f.string());
      return false;
    }
  }
  candidate = t == Target::Tile ? (fs::path(dir) / p.files.begin()->first).string() : dir;
  return true;
}
}  // namespace kgen::gen
