// `kgen generate --task T [--model M] [--base-url U] [--samples K] [--rounds R] [--target tile|ascendc] ...`: an LLM
// writes candidates for one task, kgen evaluates each attempt and feeds back what it found (src/gen/loop.h); the best
// candidate is copied to OUT/<task id>/, every prompt, response and verdict goes to the results store.
// Exit 0 when a correct candidate was found, 3 when none was, 1 when nothing could run (no reply from the model, a
// broken prompt template, the store), 2 on a usage error (including: no model configured — the message says how).
#pragma once
#include <CLI/CLI.hpp>

namespace kgen::cli {
CLI::App* add_generate_command(CLI::App& app, int& exit_code);
}  // namespace kgen::cli
