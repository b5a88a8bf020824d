// kgen.toml, parsed by toml++ (Debian's libtomlplusplus-dev) and checked against its schema here with precise errors
// (file:line:col, the known keys, a did-you-mean), and the resolution of --model/--base-url and friends to an
// Endpoint.
#include "gen/config.h"

#include "tile/diag.h"

#include <fmt/format.h>
#include <toml++/toml.h>

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
    {"usd_per_mtok_out", FieldType::Num},   {"context_tokens", FieldType::Int},
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
  if (key == "context_tokens" && v < 0) return "must be >= 0 (0: large or unknown)";
  return "";
}

// A semantic error at a node of the parsed file.
struct ParseError {
  int line, col;
  std::string msg;
};
ParseError at(const toml::source_region& r, std::string msg) {
  return {static_cast<int>(r.begin.line), static_cast<int>(r.begin.column), std::move(msg)};
}

const char* kind_name(const toml::node& v) {
  switch (v.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a floating-point number";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::array: return "an array";
    case toml::node_type::table: return "a table";
    default: return "a date or time";
  }
}

// The value as written, for messages.
std::string shown(const toml::node& v) {
  std::ostringstream o;
  v.visit([&](auto&& x) { o << x; });
  return o.str();
}

void set_field(Endpoint& ep, const Field& f, const toml::node& v, const std::string& table) {
  const std::string key = f.name;
  auto fail = [&](const std::string& msg) -> void { throw at(v.source(), msg); };
  if (f.type == FieldType::Str) {
    if (v.is_number() || v.is_boolean())
      fail(fmt::format("{} in [{}] expects a string, got {} {}: write {} = \"{}\"", key, table, kind_name(v), shown(v),
                       key, shown(v)));
    if (!v.is_string()) fail(fmt::format("{} in [{}] expects a string, got {}", key, table, kind_name(v)));
    const std::string str = v.as_string()->get();
    if (key == "base_url") ep.base_url = str;
    else if (key == "model") ep.model = str;
    else ep.api_key_env = str;
    return;
  }
  if (v.is_string())
    fail(fmt::format("{} in [{}] expects a number, got the string {}: write {} = {} without quotes", key, table,
                     shown(v), key, v.as_string()->get()));
  if (v.is_boolean()) fail(fmt::format("{} in [{}] expects a number, got the boolean {}", key, table, shown(v)));
  if (!v.is_number()) fail(fmt::format("{} in [{}] expects a number, got {} {}", key, table, kind_name(v), shown(v)));
  if (f.type == FieldType::Int && !v.is_integer())
    fail(fmt::format("{} in [{}] expects an integer, got {}", key, table, shown(v)));
  const long long integer = v.is_integer() ? v.as_integer()->get() : 0;
  const double num = v.is_integer() ? static_cast<double>(integer) : v.as_floating_point()->get();
  if (!std::isfinite(num)) fail(fmt::format("{} in [{}] must be a finite number, got {}", key, table, shown(v)));
  if (std::string why = range_problem(key, num); !why.empty())
    fail(fmt::format("{} in [{}] {}, got {}", key, table, why, shown(v)));
  if (key == "temperature") ep.temperature = num;
  else if (key == "top_p") ep.top_p = num;
  else if (key == "max_tokens") ep.max_tokens = static_cast<int>(integer);
  else if (key == "seed") ep.seed = integer;
  else if (key == "timeout_s") ep.timeout_s = num;
  else if (key == "retries") ep.retries = static_cast<int>(integer);
  else if (key == "backoff_s") ep.backoff_s = num;
  else if (key == "concurrency") ep.concurrency = static_cast<int>(integer);
  else if (key == "usd_per_mtok_in") ep.usd_per_mtok_in = num;
  else if (key == "usd_per_mtok_out") ep.usd_per_mtok_out = num;
  else if (key == "context_tokens") ep.context_tokens = static_cast<int>(integer);
}

// ---- The file ----------------------------------------------------------------------------------------------------

// One [model.NAME] table into an Endpoint.
Endpoint model_table(const std::string& name, const toml::table& t) {
  Endpoint ep;
  ep.name = name;
  ep.model = name;   // the served model's name when the table has no `model` key
  for (auto&& [k, v] : t) {
    const std::string key(k.str());
    const Field* f = find_field(key);
    if (!f)
      throw at(k.source(), fmt::format("unknown key '{}' in [model.{}] (known: {}){}", key, name, known_fields(),
                                       did_you_mean(key)));
    set_field(ep, *f, v, "model." + name);
  }
  return ep;
}

// The parsed document against kgen.toml's schema: `default` and [model.NAME] tables.
void read_document(const toml::table& doc, GenConfig& c) {
  for (auto&& [k, v] : doc) {
    const std::string key(k.str());
    if (key == "default") {
      if (!v.is_string())
        throw at(v.source(), fmt::format("default expects a string (a [model.NAME] table's name), got {} {}",
                                         kind_name(v), shown(v)));
      c.default_model = v.as_string()->get();
    } else if (key == "model") {
      if (v.is_array_of_tables())
        throw at(v.source(), "arrays of tables ([[model...]]) are not part of kgen.toml: write one [model.NAME] table "
                             "per endpoint");
      if (!v.is_table()) throw at(v.source(), fmt::format("model must hold [model.NAME] tables, got {}", kind_name(v)));
      for (auto&& [mk, mv] : *v.as_table()) {
        const std::string name(mk.str());
        if (mv.is_array_of_tables())
          throw at(mk.source(), fmt::format("arrays of tables ([[model.{}]]) are not part of kgen.toml: write one "
                                            "[model.NAME] table per endpoint",
                                            name));
        if (!mv.is_table())
          throw at(mk.source(), fmt::format("model.{} = {} at the top level: endpoint settings belong in a "
                                            "[model.{}] table, one key per line",
                                            name, shown(mv), name));
        c.models[name] = model_table(name, *mv.as_table());
      }
    } else if (v.is_table()) {
      throw at(k.source(), fmt::format("unknown table [{}]: kgen.toml has top-level keys (default) and [model.NAME] "
                                       "tables, e.g. [model.qwen]",
                                       key));
    } else {
      const std::string hint =
          find_field(key) ? fmt::format("; endpoint settings such as {} belong in a [model.NAME] table", key) : "";
      throw at(k.source(), fmt::format("unknown key '{}' at the top level (known: default){}", key, hint));
    }
  }
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
  const std::string name = path.empty() ? "kgen.toml" : path;
  try {
    const toml::table doc = toml::parse(text, name);
    read_document(doc, out);
  } catch (const toml::parse_error& e) {   // the syntax, by toml++
    const auto& b = e.source().begin;
    const std::string what(e.description());
    std::string hint = " (kgen.toml is TOML: https://toml.io)";   // and for the mistakes people make most, what to do
    if (what.find("could not determine value type") != std::string::npos)
      hint = ": strings need quotes, e.g. base_url = \"http://127.0.0.1:8000/v1\"";
    else if (what.find("unescaped control characters") != std::string::npos)
      hint = ": is the string's closing quote missing?";
    else if (what.find("cannot redefine") != std::string::npos)
      hint = ": each table and each key once; merge the two";
    err = fmt::format("{}:{}:{}: {}{}", name, b.line, b.column, what, hint);
    return false;
  } catch (const ParseError& e) {          // the schema, here
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
  if (o.context_tokens >= 0) e.context_tokens = o.context_tokens;

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
