// What the evaluator found, as text for the next repair round's prompt (and the trajectory's verdict record):
//   compile-error  the diagnostics (compiler / tile-language / static checks), each file:line one followed by the
//                  offending source line from the candidate (at most 20 diagnostics, 6,000 characters)
//   runtime-error  the emulator's error category and message with its kernel line and that source line
//   timeout        the limit and what it usually means (an endless loop, a wait that never ends)
//   wrong-answer   the failing case, the first mismatch (output, index, got, want), max abs/rel error, tolerances
//   cheating       the static check's finding
//   no-code        why the reply had no usable code, and the required format again
//   correct        the modeled profile to make it faster: kernel vs eager time and speedup on the SoC, what bounds
//                  it (HBM, vector, launch, ...), each pipe's busy share of the critical core, cores used, GM bytes
#pragma once
#include <string>

#include "eval/result.h"

namespace kgen::gen {
// candidate: the evaluated candidate (a .tile file or an op-project folder), to quote offending lines from.
std::string feedback_text(const eval::EvalResult& r, const std::string& candidate);
// The feedback for a reply that had no usable code (parse error from reply.h).
std::string no_code_feedback(const std::string& parse_error);
}  // namespace kgen::gen
