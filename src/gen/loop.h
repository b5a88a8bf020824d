// The generation loop of one task: k samples, each up to R rounds of prompt -> reply -> candidate -> evaluation ->
// feedback (feedback.h) -> repair prompt, stopping a sample at its first correct round unless `improve_rounds` asks
// for faster versions. The best round of a sample is the first by (correct, speedup); the best sample likewise.
//
// Every prompt, response and verdict is stored in the results store as a trajectory (store.h, kind "prompt" /
// "response" / "verdict", one per round; candidate_hash "" when the reply had no code). The verdict record is JSON:
//   {"verdict": "...", "speedup": 1.9, "error_category": "...", "feedback": "...", "cached": false,
//    "prompt_tokens": 812, "completion_tokens": 640}
// and each evaluated round's EvalResult is put in the store under its sample index, so that `kgen bench` reuses the
// evaluation of the candidate it is handed instead of running it again.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "eval/evaluate.h"
#include "eval/result.h"
#include "gen/client.h"
#include "gen/prompt.h"

namespace kgen::eval { class Store; }

namespace kgen::gen {
struct RoundRecord {
  int sample = 0, round = 0;                       // round 0 = the first attempt
  std::string verdict;                             // eval verdict name, or "no-code", or "no-reply" (the request
                                                   // failed after its retries: the error is in `feedback`)
  double speedup = 0;
  std::string candidate;                           // path of the round's candidate ("" for no-code / no-reply)
  std::string feedback;                            // what the next round was told
  std::string summary;                             // one line for progress output: the first diagnostic, the first
                                                   // mismatch, why there was no code or no reply
  bool cached = false;
  long long prompt_tokens = 0, completion_tokens = 0;
  double cost_usd = 0;                             // at the endpoint's usd_per_mtok_in/out (0: free or unknown)
  double seconds = 0;                              // request + evaluation
};

struct SampleResult {
  int sample = 0;
  std::vector<RoundRecord> rounds;
  int best_round = -1;                             // -1: no round produced a candidate
  eval::EvalResult best;                           // the evaluation of the best round (verdict no-code: none had code)
  std::string error;                               // set when the sample could not run at all (a broken prompt
                                                   // template, an endpoint nothing listens at); rounds is then empty
  bool unreachable = false;                        // error: the model's endpoint is not there (ChatReply)
};

struct LoopOptions {
  PromptOptions prompt;
  int samples = 1, rounds = 3;                     // rounds: attempts per sample, the first included
  bool improve_rounds = false;                     // keep repairing a correct kernel for speed until rounds run out
  eval::EvalOptions eval;                          // soc, trials, limits (task and candidate set per round)
  std::string work_dir;                            // WORK/<task_id>/s<k>/r<n>/ holds each round's candidate
  std::function<void(const RoundRecord&)> on_round;   // progress, called after each round (serialized)
};

// Runs sample `sample` of a task. store may be null (no trajectories). Never throws.
SampleResult run_sample(const TaskInfo& task, int sample, const LoopOptions& o, ChatClient& client,
                        eval::Store* store);
using eval::better;   // eval/result.h: the order that picks a sample's best round
// One progress line for a round: "sample 0 round 1: correct, 1.02x (modeled, Ascend910B2) (3.2 s)", with the
// round's first diagnostic or why it had no code, and "[cached reply]" when the reply came from the cache.
std::string round_line(const RoundRecord& r, const std::string& soc);
}  // namespace kgen::gen
