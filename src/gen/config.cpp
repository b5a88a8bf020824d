// kgen.toml: a small TOML subset (tables, key = string | number | boolean, comments) with precise errors, and the
// resolution of --model/--base-url and friends to an Endpoint.
#include "gen/config.h"

#include "tile/diag.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace fs = std::filesystem;

namespace kgen::gen {
namespace {

// ---- Values and the per-line scanner ------------------------------------------------------------------------------

struct Value {
  enum Kind { String, Int, Float, Bool } kind = String;
  std::string str;        // String
  double num = 0;         // Int and Float
  long long integer = 0;  // Int
  bool boolean = false;   // Bool
  int col = 0;            // 1-based column of the value's first character
  std::string text;       // the value as written, for messages
};

const char* kind_name(Value::Kind k) {
  switch (k) {
    case Value::String: return "a string";
    case Value::Int: return "an integer";
    case Value::Float: return "a floating-point number";
    case Value::Bool: return "a boolean";
  }
  return "a value";
}

// A parse error at a 1-based line and column.
struct ParseError {
  int line, col;
  std::string msg;
};

bool bare_key_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }

class LineScanner {
 public:
  LineScanner(const std::string& line, int lineno) : s_(line), line_(lineno) {}
  void skip_ws() {
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\t')) ++p_;
  }
  bool at_end_or_comment() {
    skip_ws();
    return p_ >= s_.size() || s_[p_] == '#';
  }
  char peek() const { return p_ < s_.size() ? s_[p_] : '\0'; }
  int col() const { return static_cast<int>(p_) + 1; }
  void advance() { ++p_; }
  [[noreturn]] void fail(int col, std::string msg) const { throw ParseError{line_, col, std::move(msg)}; }

  // Nothing but a comment may follow a complete statement.
  void expect_end(const std::string& after) {
    if (!at_end_or_comment())
      fail(col(), fmt::format("unexpected '{}' after {}; put each setting on its own line (comments start with #)",
                              s_.substr(p_, 20), after));
  }

  // A bare key (letters, digits, _ and -) or a quoted one.
  std::string key() {
    skip_ws();
    if (peek() == '"' || peek() == '\'') return string_value().str;
    size_t start = p_;
    while (p_ < s_.size() && bare_key_char(s_[p_])) ++p_;
    if (p_ == start)
      fail(col(), p_ < s_.size() ? fmt::format("expected a key, found '{}'", s_[p_]) : "expected a key, found the end of the line");
    return s_.substr(start, p_ - start);
  }

  Value value() {
    skip_ws();
    Value v;
    v.col = col();
    size_t start = p_;
    char c = peek();
    if (c == '\0' || c == '#') fail(col(), "expected a value after '=' (a \"string\", a number, or true/false)");
    if (c == '"' || c == '\'') {
      v = string_value();
    } else if (c == '[' || c == '{') {
      fail(col(), "arrays and inline tables are not part of kgen.toml's TOML subset (strings, numbers, true/false)");
    } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.') {
      v = number_value();
    } else {
      while (p_ < s_.size() && !std::isspace(static_cast<unsigned char>(s_[p_])) && s_[p_] != '#') ++p_;
      std::string word = s_.substr(start, p_ - start);
      if (word == "true" || word == "false") {
        v.kind = Value::Bool;
        v.boolean = word == "true";
      } else {
        fail(v.col, fmt::format("'{}' is not a value: strings need quotes (\"{}\"), booleans are true or false", word,
                                word));
      }
    }
    v.col = static_cast<int>(start) + 1;
    v.text = s_.substr(start, p_ - start);
    return v;
  }

 private:
  Value string_value() {
    Value v;
    v.kind = Value::String;
    int open_col = col();
    char q = peek();
    advance();
    if (q == '"' && s_.compare(p_, 2, "\"\"") == 0)
      fail(open_col, "multi-line strings (\"\"\") are not part of kgen.toml's TOML subset");
    while (true) {
      if (p_ >= s_.size()) fail(open_col, fmt::format("unterminated string: add the closing {}", q));
      char c = s_[p_++];
      if (c == q) break;
      if (q == '"' && c == '\\') v.str += escape(open_col);
      else v.str += c;
    }
    return v;
  }

  std::string escape(int open_col) {
    (void)open_col;
    int esc_col = col() - 1;
    if (p_ >= s_.size()) fail(esc_col, "a backslash at the end of the line: write \\\\ for a backslash");
    char e = s_[p_++];
    switch (e) {
      case 'n': return "\n";
      case 't': return "\t";
      case 'r': return "\r";
      case 'b': return "\b";
      case 'f': return "\f";
      case '"': return "\"";
      case '\\': return "\\";
      case 'u':
      case 'U': return unicode(e == 'u' ? 4 : 8, esc_col);
      default:
        fail(esc_col, fmt::format("unknown escape \\{} in a string: use \\\\ for a backslash, or a 'literal string'", e));
    }
  }

  std::string unicode(int digits, int esc_col) {
    if (p_ + digits > s_.size()) fail(esc_col, fmt::format("\\{} needs {} hex digits", digits == 4 ? 'u' : 'U', digits));
    std::string hex = s_.substr(p_, digits);
    for (char h : hex)
      if (!std::isxdigit(static_cast<unsigned char>(h))) fail(esc_col, fmt::format("'{}' is not {} hex digits", hex, digits));
    p_ += digits;
    unsigned long cp = std::stoul(hex, nullptr, 16);
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) fail(esc_col, fmt::format("U+{} is not a Unicode scalar value", hex));
    std::string out;  // UTF-8
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return out;
  }

  Value number_value() {
    Value v;
    int start_col = col();
    size_t start = p_;
    while (p_ < s_.size() && !std::isspace(static_cast<unsigned char>(s_[p_])) && s_[p_] != '#') ++p_;
    std::string raw = s_.substr(start, p_ - start);
    std::string digits;  // TOML allows 1_000 for readability
    for (char c : raw)
      if (c != '_') digits += c;
    bool is_float = digits.find_first_of(".eE") != std::string::npos;
    errno = 0;
    char* end = nullptr;
    if (is_float) {
      v.kind = Value::Float;
      v.num = std::strtod(digits.c_str(), &end);
    } else {
      v.kind = Value::Int;
      v.integer = std::strtoll(digits.c_str(), &end, 10);
      v.num = static_cast<double>(v.integer);
    }
    if (digits.empty() || !end || *end != '\0' || errno == ERANGE || !std::isfinite(v.num))
      fail(start_col, fmt::format("'{}' is not a number", raw));
    return v;
  }

  const std::string& s_;
  size_t p_ = 0;
  int line_;
};

// ---- Endpoint fields ----------------------------------------------------------------------------------------------

enum class FieldType { Str, Int, Num };
struct Field {
  const char* name;
  FieldType type;
};
constexpr Field kFields[] = {
    {"base_url", FieldType::Str},     {"model", FieldType::Str},         {"api_key_env", FieldType::Str},
    {"temperature", FieldType::Num},  {"top_p", FieldType::Num},         {"max_tokens", FieldType::Int},
    {"seed", FieldType::Int},         {"timeout_s", FieldType::Num},     {"retries", FieldType::Int},
    {"backoff_s", FieldType::Num},    {"concurrency", FieldType::Int},   {"usd_per_mtok_in", FieldType::Num},
    {"usd_per_mtok_out", FieldType::Num},
};

std::string known_fields() {
  std::string s;
  for (const auto& f : kFields) s += (s.empty() ? "" : ", ") + std::string(f.name);
  return s;
}

// "; did you mean 'temperature'?" when a known key is a few edits away, else "".
std::string did_you_mean(const std::string& key) {
  std::vector<std::string> names;
  for (const auto& f : kFields) names.push_back(f.name);
  const std::string best = tile::closest(key, names);
  return best.empty() ? "" : fmt::format("; did you mean '{}'?", best);
}

const Field* find_field(const std::string& key) {
  for (const auto& f : kFields)
    if (key == f.name) return &f;
  return nullptr;
}

// The range a field's value must lie in; "" when v is fine.
std::string range_problem(const std::string& key, double v) {
  if ((key == "temperature" || key == "backoff_s" || key == "retries" || key == "usd_per_mtok_in" ||
       key == "usd_per_mtok_out") && v < 0)
    return "must be >= 0";
  if (key == "top_p" && (v <= 0 || v > 1)) return "must be in (0, 1]";
  if ((key == "max_tokens" || key == "concurrency") && v < 1) return "must be >= 1";
  if (key == "timeout_s" && v <= 0) return "must be > 0";
  return "";
}

void set_field(Endpoint& ep, const Field& f, const Value& v, int line, const std::string& table) {
  std::string key = f.name;
  auto fail = [&](const std::string& msg) -> void { throw ParseError{line, v.col, msg}; };
  if (f.type == FieldType::Str) {
    if (v.kind != Value::String)
      fail(fmt::format("{} in [{}] expects a string, got {} {}: write {} = \"{}\"", key, table, kind_name(v.kind), v.text,
                       key, v.text));
    if (key == "base_url") ep.base_url = v.str;
    else if (key == "model") ep.model = v.str;
    else ep.api_key_env = v.str;
    return;
  }
  if (v.kind == Value::String)
    fail(fmt::format("{} in [{}] expects a number, got the string {}: write {} = {} without quotes", key, table, v.text,
                     key, v.str));
  if (v.kind == Value::Bool) fail(fmt::format("{} in [{}] expects a number, got the boolean {}", key, table, v.text));
  if (f.type == FieldType::Int && v.kind != Value::Int)
    fail(fmt::format("{} in [{}] expects an integer, got {}", key, table, v.text));
  if (std::string why = range_problem(key, v.num); !why.empty())
    fail(fmt::format("{} in [{}] {}, got {}", key, table, why, v.text));
  if (key == "temperature") ep.temperature = v.num;
  else if (key == "top_p") ep.top_p = v.num;
  else if (key == "max_tokens") ep.max_tokens = static_cast<int>(v.integer);
  else if (key == "seed") ep.seed = v.integer;
  else if (key == "timeout_s") ep.timeout_s = v.num;
  else if (key == "retries") ep.retries = static_cast<int>(v.integer);
  else if (key == "backoff_s") ep.backoff_s = v.num;
  else if (key == "concurrency") ep.concurrency = static_cast<int>(v.integer);
  else if (key == "usd_per_mtok_in") ep.usd_per_mtok_in = v.num;
  else if (key == "usd_per_mtok_out") ep.usd_per_mtok_out = v.num;
}

// ---- The file ----------------------------------------------------------------------------------------------------

struct ParseState {
  GenConfig& c;
  std::string table;                           // "" = top level, else the model table's name
  std::map<std::string, int> table_lines;      // model table -> line of its header
  std::map<std::string, int> key_lines;        // "table\nkey" -> line where it was set
  std::map<std::string, bool> has_model_key;   // model table -> whether `model` was set
};

void parse_header(LineScanner& sc, int lineno, ParseState& st) {
  int open_col = sc.col();
  sc.advance();  // '['
  if (sc.peek() == '[') sc.fail(open_col, "arrays of tables ([[...]]) are not part of kgen.toml's TOML subset");
  std::vector<std::string> parts{sc.key()};
  sc.skip_ws();
  while (sc.peek() == '.') {
    sc.advance();
    parts.push_back(sc.key());
    sc.skip_ws();
  }
  if (sc.peek() != ']') sc.fail(sc.col(), "expected ']' to close the table header");
  sc.advance();
  std::string shown;
  for (const auto& p : parts) shown += (shown.empty() ? "" : ".") + p;
  if (parts.size() != 2 || parts[0] != "model")
    sc.fail(open_col + 1, fmt::format("unknown table [{}]: kgen.toml has top-level keys (default) and [model.NAME] "
                                      "tables, e.g. [model.qwen]",
                                      shown));
  const std::string& name = parts[1];
  if (auto it = st.table_lines.find(name); it != st.table_lines.end())
    sc.fail(open_col, fmt::format("duplicate table [model.{}] (first defined at line {}); merge the two", name, it->second));
  sc.expect_end(fmt::format("[model.{}]", name));
  st.table_lines[name] = lineno;
  st.table = name;
  Endpoint ep;
  ep.name = name;
  ep.model = name;  // the served model's name when the table has no `model` key
  st.c.models[name] = ep;
}

void parse_key_value(LineScanner& sc, int lineno, ParseState& st) {
  int key_col = sc.col();
  std::string key = sc.key();
  sc.skip_ws();
  if (sc.peek() == '.') sc.fail(sc.col(), "dotted keys are not part of kgen.toml's TOML subset: use a [model.NAME] table");
  if (sc.peek() != '=') sc.fail(sc.col(), fmt::format("expected '=' after the key '{}'", key));
  sc.advance();
  Value v = sc.value();
  sc.expect_end(fmt::format("the value of {}", key));

  std::string where = st.table.empty() ? "the top level" : fmt::format("[model.{}]", st.table);
  std::string slot = st.table + "\n" + key;
  if (auto it = st.key_lines.find(slot); it != st.key_lines.end())
    sc.fail(key_col, fmt::format("duplicate key '{}' in {} (first set at line {})", key, where, it->second));
  st.key_lines[slot] = lineno;

  if (st.table.empty()) {
    if (key != "default") {
      std::string hint = find_field(key) ? fmt::format("; endpoint settings such as {} belong in a [model.NAME] table", key) : "";
      sc.fail(key_col, fmt::format("unknown key '{}' at the top level (known: default){}", key, hint));
    }
    if (v.kind != Value::String)
      throw ParseError{lineno, v.col, fmt::format("default expects a string (a [model.NAME] table's name), got {} {}",
                                                  kind_name(v.kind), v.text)};
    st.c.default_model = v.str;
    return;
  }
  const Field* f = find_field(key);
  if (!f)
    sc.fail(key_col, fmt::format("unknown key '{}' in {} (known: {}){}", key, where, known_fields(), did_you_mean(key)));
  set_field(st.c.models[st.table], *f, v, lineno, "model." + st.table);
}

std::string read_file(const std::string& path, std::string& err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err = fmt::format("cannot read the config file {}: {}", path, std::strerror(errno));
    return "";
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string home_config() {
  const char* home = std::getenv("HOME");
  return home && *home ? (fs::path(home) / ".config" / "kgen" / "kgen.toml").string() : "";
}

bool exists(const std::string& p) {
  std::error_code ec;
  return !p.empty() && fs::is_regular_file(p, ec);
}

// What to tell a user who has no model configured.
std::string setup_help(const GenConfig& c, const std::string& headline) {
  std::string read = c.path.empty() ? "no kgen.toml was found (looked at --config, $KGEN_CONFIG, ./kgen.toml, "
                                      "~/.config/kgen/kgen.toml)"
                                    : fmt::format("{} was read", c.path);
  std::string tables;
  for (const auto& [name, ep] : c.models) tables += (tables.empty() ? "" : ", ") + name;
  std::string have = tables.empty() ? ""
                                    : fmt::format("\n{} defines the models {} but no default: pass --model {} or add "
                                                  "default = \"{}\" at its top.",
                                                  c.path, tables, c.models.begin()->first, c.models.begin()->first);
  return fmt::format(
      "{}; {}.{}\n"
      "kgen talks to any OpenAI-compatible chat-completions server (vLLM, SGLang, llama.cpp, Ollama, DeepSeek, "
      "OpenAI). Either name it on the command line:\n"
      "  kgen generate --task T --model Qwen/Qwen2.5-Coder-32B-Instruct --base-url http://127.0.0.1:8000/v1\n"
      "or describe it once in kgen.toml (in this directory, ~/.config/kgen/kgen.toml, $KGEN_CONFIG or --config F):\n"
      "  default = \"qwen\"\n"
      "  [model.qwen]\n"
      "  base_url = \"http://127.0.0.1:8000/v1\"\n"
      "  model = \"Qwen/Qwen2.5-Coder-32B-Instruct\"\n"
      "  api_key_env = \"OPENAI_API_KEY\"   # hosted APIs only: the variable holding the key\n"
      "  temperature = 0.8\n"
      "and run `kgen generate --task T`. docs/generation.md shows vLLM, Ollama and hosted APIs step by step.",
      headline, read, have);
}

}  // namespace

std::string find_config_file(const std::string& explicit_path) {
  if (!explicit_path.empty()) return explicit_path;
  if (const char* env = std::getenv("KGEN_CONFIG"); env && *env) return env;
  if (exists("kgen.toml")) return "kgen.toml";
  if (std::string home = home_config(); exists(home)) return home;
  return "";
}

bool parse_config(const std::string& text, const std::string& path, GenConfig& c, std::string& err) {
  GenConfig out;
  out.path = path;
  ParseState st{out, "", {}, {}, {}};
  std::string name = path.empty() ? "kgen.toml" : path;
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  try {
    while (std::getline(in, line)) {
      ++lineno;
      if (!line.empty() && line.back() == '\r') line.pop_back();  // CRLF files
      if (lineno == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);  // a UTF-8 byte-order mark
      LineScanner sc(line, lineno);
      if (sc.at_end_or_comment()) continue;
      if (sc.peek() == '[') parse_header(sc, lineno, st);
      else parse_key_value(sc, lineno, st);
    }
  } catch (const ParseError& e) {
    err = fmt::format("{}:{}:{}: {}", name, e.line, e.col, e.msg);
    return false;
  }
  c = std::move(out);
  return true;
}

bool load_config(const std::string& path, GenConfig& c, std::string& err) {
  std::string text = read_file(path, err);
  if (!err.empty()) return false;
  return parse_config(text, path, c, err);
}

bool resolve_endpoint(const GenConfig& c, const std::string& model, const EndpointOverrides& o, Endpoint& ep,
                      std::string& err) {
  std::string name = model.empty() ? c.default_model : model;
  if (name.empty()) {
    err = setup_help(c, "no model configured");
    return false;
  }
  Endpoint e;
  auto table = c.models.find(name);
  bool from_table = table != c.models.end();
  if (from_table) {
    e = table->second;
    e.name = name;
  } else {
    e.name = name;
    e.model = name;  // ad hoc: the name is what the server serves
  }
  // Command line first, then the table, then $KGEN_BASE_URL for whatever is still missing.
  if (!o.base_url.empty()) e.base_url = o.base_url;
  if (e.base_url.empty())
    if (const char* env = std::getenv("KGEN_BASE_URL"); env && *env) e.base_url = env;
  if (!o.api_key_env.empty()) e.api_key_env = o.api_key_env;
  if (o.temperature >= 0) e.temperature = o.temperature;
  if (o.top_p >= 0) e.top_p = o.top_p;
  if (o.timeout_s >= 0) e.timeout_s = o.timeout_s;
  if (o.max_tokens >= 0) e.max_tokens = o.max_tokens;
  if (o.retries >= 0) e.retries = o.retries;
  if (o.concurrency >= 0) e.concurrency = o.concurrency;
  if (o.seed >= 0) e.seed = o.seed;

  if (e.base_url.empty()) {
    if (from_table)
      err = fmt::format("[model.{}] in {} has no base_url: add base_url = \"http://HOST:PORT/v1\" to it, or pass "
                        "--base-url, or set $KGEN_BASE_URL (see docs/generation.md)",
                        name, c.path.empty() ? "kgen.toml" : c.path);
    else
      err = setup_help(c, fmt::format("no base URL for the model '{}': it is not a [model.{}] table, and neither "
                                      "--base-url nor $KGEN_BASE_URL is set",
                                      name, name));
    return false;
  }
  for (auto [what, bad] : {std::pair<const char*, bool>{"temperature must be >= 0", e.temperature < 0},
                           {"top_p must be in (0, 1]", e.top_p <= 0 || e.top_p > 1},
                           {"max_tokens must be >= 1", e.max_tokens < 1},
                           {"timeout_s must be > 0 seconds", e.timeout_s <= 0},
                           {"concurrency must be >= 1", e.concurrency < 1}}) {
    if (bad) {
      err = fmt::format("{} (model '{}', from the command line or {})", what, name,
                        c.path.empty() ? "the defaults" : c.path);
      return false;
    }
  }
  ep = e;
  err.clear();
  return true;
}

}  // namespace kgen::gen
