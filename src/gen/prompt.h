// Prompts for kernel generation, built from the templates in prompts/ (docs/generation.md).
//
// Templates are text files with {{name}} placeholders; an unknown placeholder or an unclosed "{{" is an error that
// names the template file, line and column. Variables:
//   task_id, category, op_name     "activation/relu", "activation", "relu"
//   task_source                    the task's reference .py, verbatim
//   soc, soc_facts                 the SoC profile's name and a few lines of facts (AI cores, vector cores, UB, L1,
//                                  L0A/B/C sizes, HBM bandwidth) from hardware/<soc>.json (src/perf/profile.h)
//   language                       the target's reference: docs/tile-language.md (tile; its compact summary for a
//                                  model with context_tokens below 32768) or prompts/ascendc_api.md
//   examples                       the expert examples (below), each: its task's reference source, then its solution
//   reply_format                   how the reply must give the code (prompts/format_<target>.md)
//   feedback, previous             (repair only) what the evaluator found; the code of the previous attempt
// Files: prompts/system_<target>.md (system message), prompts/task_<target>.md (first user message),
//        prompts/repair.md (each repair round's user message).
// An NPUKernelBench task folder (ascendc only) takes prompts/task_ascendc_npukb.md, with its own variables
// (gen/npukb_prompt.h: api_desc, module_source, prepare_source, pybind_source, test_cases, skeleton) and its op's
// names (op_type the folder's op name, kernel_name its snake case).
//
// Examples: for tile, programs of kernels/<category>/<name>.tile; for ascendc, op projects of candidates/ (their
// three files). Chosen nearest first: same category, then most operator-name words in common (split on '_'), then
// name order; never the task's own solution (same task id). At most PromptOptions::examples.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gen/client.h"

namespace kgen::gen {
enum class Target { Tile, AscendC };
const char* target_name(Target t);                       // "tile", "ascendc"
bool parse_target(const std::string& s, Target& t);

struct PromptOptions {
  Target target = Target::Tile;
  std::string soc = "Ascend910B2";
  std::string prompts_dir;                               // default KGEN_SOURCE_DIR/prompts
  std::string kernels_dir;                               // tile examples; default KGEN_SOURCE_DIR/kernels
  std::string candidates_dir;                            // ascendc examples; default KGEN_SOURCE_DIR/candidates
  std::string suite_dir;                                 // the examples' task sources; default KGEN_SOURCE_DIR/tasks
  int examples = 2;
  std::set<std::string> hidden_examples;                 // task ids never shown as examples (kgen data build: the
                                                         // validation and test tasks, kept out of train prompts)
  int context_tokens = 0;                                // the model's context window (Endpoint::context_tokens):
                                                         // below 32768 a tile prompt carries compact_tile_reference()
                                                         // in at most 40 % of it, and fewer examples when the prompt
                                                         // would pass 70 % (the rest is the reply's)
};

struct TaskInfo {
  std::string id, category, path;                        // "activation/relu", "activation", absolute .py (or an
                                                         // NPUKernelBench task folder)
};

// {{name}} substitution. False with err "prompts/repair.md:3:7: unknown placeholder {{feedbak}} (known: ...)".
bool fill_template(const std::string& text, const std::string& file, const std::map<std::string, std::string>& vars,
                   std::string& out, std::string& err);

// The example ids chosen for a task (nearest first), e.g. {"activation/gelu", "activation/swish"}.
std::vector<std::string> choose_examples(const TaskInfo& task, const PromptOptions& o);

// The first round's messages: system + user.
bool initial_messages(const TaskInfo& task, const PromptOptions& o, std::vector<ChatMessage>& msgs,
                      std::string& err);
// A repair round's messages: the first round's system + user, the previous reply (as the assistant), then the
// repair user message filled with feedback and the previous attempt's code. Only the latest attempt is carried, so
// the context stays bounded however many rounds run.
bool repair_messages(const TaskInfo& task, const PromptOptions& o, const std::string& previous_reply,
                     const std::string& previous_code, const std::string& feedback, std::vector<ChatMessage>& msgs,
                     std::string& err);
}  // namespace kgen::gen
