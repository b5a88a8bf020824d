// The compiler's reasoning, written out: why the AscendC it emitted for a program looks as it does — the SoC's
// numbers it sized against, the UB buffers and their bytes, the queue depth, the core split, the tail, the pipeline
// stages and their syncs, where each dtype goes — with the values the op's own TilingFunc chose at one shape.
// True by construction: every statement is read from the compiled Kernel (ir.h) or from the tiling the host code
// computed (`kgen tile explain`, and the reasoning rows of `kgen data build`, docs/data.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tile/compile.h"

namespace kgen::tile {
struct ExplainFacts {
  std::string soc;                 // "Ascend910B2"
  uint64_t ub_bytes = 0;           // Unified Buffer per vector core
  uint64_t l1_bytes = 0, l0a_bytes = 0, l0b_bytes = 0, l0c_bytes = 0;   // per cube core
  uint32_t aiv_cores = 0, aic_cores = 0;
  std::string shape;               // the inputs TilingFunc ran on: "x=float32:4096,393216"
  uint32_t block_dim = 0;          // what TilingFunc set
  struct Field { std::string name, type, value, comment; };
  std::vector<Field> tiling;       // the tiling data it saved, field by field (op/tiling_fields.h)
  std::string plan;                // the IR printed after the last lowering pass (compile_program's dump)
};
// Step-by-step prose (numbered steps, plain text).
std::string explain(const CompileResult& r, const ExplainFacts& f);
}  // namespace kgen::tile
