// The model and loop options shared by `kgen generate` and `kgen bench --generator llm:MODEL`, and turning them into
// the gen library's settings (kgen.toml read, cache folder chosen).
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "gen/llm_generator.h"

namespace kgen::cli {
struct LlmCli {
  std::string config;                   // --config (else $KGEN_CONFIG, ./kgen.toml, ~/.config/kgen/kgen.toml)
  std::string target = "tile";
  gen::EndpointOverrides over;
  int rounds = 3, examples = 2;
  bool improve = false, no_cache = false;
  std::string prompts_dir;
};
// Adds --config, --base-url, --api-key-env, --target, --rounds, --improve, --examples, --temperature, --top-p,
// --max-tokens, --seed, --request-timeout, --retries, --concurrency, --no-cache, --prompts to cmd.
void add_llm_options(CLI::App* cmd, LlmCli& c);
// The options that change what the model is asked and how it samples, as one line (the bench's generation stamp).
std::string llm_fingerprint(const LlmCli& c);
// False with err (precise: the config file's line, an unknown target) when the options cannot be used.
bool llm_settings(const LlmCli& c, const std::string& cache_root, gen::LlmSettings& s, std::string& err);
}  // namespace kgen::cli
