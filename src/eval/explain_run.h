// A tile program's reasoning at one shape (tile/explain.h): compiled, its op project's TilingFunc run at that shape
// in the sandbox (`kgen op run --tiling-only`), the values it chose written into the compiler's explanation. Used by
// `kgen tile explain` and the reasoning rows of `kgen data build`.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace kgen::eval {
struct Explained {
  std::string reasoning;                       // tile::explain's prose
  std::map<std::string, std::string> files;    // the op project the program compiles to (relative path -> text)
  std::string shape;                           // the --input-shape arguments, joined
};
// input_shapes: NAME=DTYPE:D0,D1,... per input (perf_input_shapes makes them from a result's perf.inputs). False with
// err (the compile diagnostics, or the op run's error) when the program does not compile or its tiling fails.
bool explain_program(const std::string& file, const std::string& soc, const std::vector<std::string>& input_shapes,
                     Explained& out, std::string& err);
// "float32[4096,393216], float16[16]" (EvalResult::perf.inputs) -> {"x=float32:4096,393216", ...}, named after the
// program's inputs in order; empty with err when the counts differ or the text is not that form.
std::vector<std::string> perf_input_shapes(const std::string& file, const std::string& perf_inputs, std::string& err);
}  // namespace kgen::eval
