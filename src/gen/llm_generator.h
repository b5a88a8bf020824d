// `kgen bench --generator llm:MODEL`: the LLM loop (loop.h) as a bench generator (eval/generate.h). Each (task,
// sample) runs its rounds, evaluating every attempt with the bench's own options and store; the best attempt's
// candidate is what the bench receives (and finds already evaluated in the store).
#pragma once
#include <memory>
#include <string>

#include "gen/client.h"
#include "gen/config.h"
#include "gen/prompt.h"

namespace kgen::gen {
struct LlmSettings {
  GenConfig config;                 // kgen.toml (may be empty)
  EndpointOverrides overrides;      // --base-url, --temperature, ...
  PromptOptions prompt;             // target, examples, folders (soc is taken from the run)
  int rounds = 3;
  bool improve_rounds = false;
  std::string cache_dir;            // reply cache; empty: none
};
// Registers the "llm" generator kind with these settings (the CLI calls it before run_bench). The client of the
// first llm:MODEL generator built is kept for usage(): its requests, tokens and cost.
void register_llm_generator(const LlmSettings& s);
Usage llm_generator_usage();
}  // namespace kgen::gen
