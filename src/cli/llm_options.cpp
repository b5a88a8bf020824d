// Options of the LLM loop shared by kgen generate and kgen bench (llm_options.h).
#include "cli/llm_options.h"

#include <filesystem>
#include <fmt/core.h>

namespace kgen::cli {

void add_llm_options(CLI::App* cmd, LlmCli& c) {
  cmd->add_option("--config", c.config,
                  "Model endpoints file (default $KGEN_CONFIG, ./kgen.toml, ~/.config/kgen/kgen.toml)");
  cmd->add_option("--base-url", c.over.base_url, "OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1");
  cmd->add_option("--api-key-env", c.over.api_key_env, "Environment variable holding the API key (OPENAI_API_KEY)");
  cmd->add_option("--target", c.target, "What the model writes: tile (a tile program) or ascendc (an op project)")
      ->capture_default_str();
  cmd->add_option("--rounds", c.rounds, "Attempts per sample: the first, then repairs from the evaluator's feedback")
      ->capture_default_str();
  cmd->add_flag("--improve", c.improve, "Keep going after a correct round, feeding back the modeled profile for speed");
  cmd->add_option("--examples", c.examples, "Expert examples in the prompt (nearest by category and operator)")
      ->capture_default_str();
  cmd->add_option("--temperature", c.over.temperature, "Sampling temperature (default 0.8 or the config's)");
  cmd->add_option("--top-p", c.over.top_p, "Nucleus sampling (default 0.95 or the config's)");
  cmd->add_option("--max-tokens", c.over.max_tokens, "Largest reply, tokens (default 8192 or the config's)");
  cmd->add_option("--context-tokens", c.over.context_tokens,
                  "The model's context window in tokens (default the config's, else large): below 32768 a tile "
                  "prompt carries a compact summary of the language instead of the whole reference");
  cmd->add_option("--llm-seed", c.over.seed, "Sampling seed sent to the server; sample k uses seed + k");
  cmd->add_option("--request-timeout", c.over.timeout_s, "One request's wall-clock limit, seconds (default 600)");
  cmd->add_option("--retries", c.over.retries, "Retries on 429, 5xx and dropped connections (default 4)");
  cmd->add_option("--concurrency", c.over.concurrency, "Requests in flight at once (default 4)");
  cmd->add_flag("--no-cache", c.no_cache, "Do not read or write the reply cache ($KGEN_CACHE/llm)");
  cmd->add_option("--prompts", c.prompts_dir, "Prompt templates folder (default prompts/ of the source tree)");
}

std::string llm_fingerprint(const LlmCli& c) {
  const auto& v = c.over;
  return fmt::format("target={} rounds={} improve={} examples={} prompts={} temperature={} top_p={} max_tokens={} "
                     "seed={} config={} context={}",
                     c.target, c.rounds, c.improve, c.examples, c.prompts_dir, v.temperature, v.top_p, v.max_tokens,
                     v.seed, c.config, v.context_tokens);
}

bool llm_settings(const LlmCli& c, const std::string& cache_root, gen::LlmSettings& s, std::string& err) {
  if (!gen::parse_target(c.target, s.prompt.target)) {
    err = "--target " + c.target + ": unknown target (tile: the model writes a tile program; ascendc: the op "
          "project's three files)";
    return false;
  }
  if (c.rounds < 1) {
    err = "--rounds must be at least 1";
    return false;
  }
  if (c.examples < 0) {
    err = "--examples must not be negative";
    return false;
  }
  const std::string path = gen::find_config_file(c.config);
  if (!c.config.empty() && path.empty()) {
    err = "--config " + c.config + ": no such file";
    return false;
  }
  if (!path.empty() && !gen::load_config(path, s.config, err)) return false;
  s.overrides = c.over;
  s.rounds = c.rounds;
  s.improve_rounds = c.improve;
  s.prompt.examples = c.examples;
  if (!c.prompts_dir.empty()) s.prompt.prompts_dir = c.prompts_dir;
  s.cache_dir = c.no_cache ? "" : (std::filesystem::path(cache_root) / "llm").string();
  return true;
}
}  // namespace kgen::cli
