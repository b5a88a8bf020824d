// Model endpoints from kgen.toml, and resolving `--model M [--base-url U]` to an Endpoint.
//
// kgen.toml (TOML, parsed by toml++; the schema: a top-level `default` and [model.NAME] tables of Endpoint fields):
//   default = "qwen"                       # optional: the endpoint used when --model is not given
//   [model.qwen]                           # --model qwen, --generator llm:qwen
//   base_url = "http://127.0.0.1:8000/v1"
//   model = "Qwen/Qwen2.5-Coder-32B-Instruct"
//   api_key_env = "OPENAI_API_KEY"         # any Endpoint field (client.h) by its name
//   temperature = 0.8
// The file: --config F, else $KGEN_CONFIG, else ./kgen.toml, else ~/.config/kgen/kgen.toml (none is fine).
// Errors are precise: "kgen.toml:7:13: unknown key 'temprature' in [model.qwen] (known: base_url, model, ...)".
#pragma once
#include <map>
#include <string>

#include "gen/client.h"

namespace kgen::gen {
struct GenConfig {
  std::string path;                                // the file read ("" when none)
  std::string default_model;
  std::map<std::string, Endpoint> models;          // by table name
};
// The config file to read: explicit if non-empty, else the search order above; "" when there is none.
std::string find_config_file(const std::string& explicit_path);
// Parses text (named path in messages). False with err on any syntax error, unknown table or key, wrong value type.
bool parse_config(const std::string& text, const std::string& path, GenConfig& c, std::string& err);
bool load_config(const std::string& path, GenConfig& c, std::string& err);

struct EndpointOverrides {                         // command-line values; empty / negative: not given
  std::string base_url, api_key_env;
  double temperature = -1, top_p = -1, timeout_s = -1;
  int max_tokens = -1, retries = -1, concurrency = -1, context_tokens = -1;
  long long seed = -1;
};
// model: a [model.NAME] table of c, else the served model name used ad hoc (base URL from the overrides or
// $KGEN_BASE_URL). Empty model: c.default_model. False with err when nothing names a model or a base URL; that err
// says how to set one up (a kgen.toml example, --model/--base-url, docs/generation.md).
bool resolve_endpoint(const GenConfig& c, const std::string& model, const EndpointOverrides& o, Endpoint& ep,
                      std::string& err);
}  // namespace kgen::gen
