// The op runner's pipeline, shared by `kgen-oprun run` (kgen op run) and exec_aclnn (MultiKernelBench bindings):
// build and load the host library, pick the op, validate inputs against the OpDef, fill attrs, infer output
// shapes, run TilingFunc, build the kernel for the chosen dtype column, allocate GM, launch, read outputs back.
//
// Limits chosen here (documented for docs/op-projects.md):
//  - raw tiling buffer capacity kTilingCapacity = 16 KiB: GE's default maximum tiling data size when an op does
//    not declare op_para_size (kMaxTilingDataSize = 16UL * 1024UL in GE's op_tiling / single-op task builders).
//    (aclnn's opdev framework reserves up to 800 KiB for its built-in ops; custom ops compiled by msopgen get the
//    op_para_size of their binary, which kgen cannot know, so the conservative GE default is used.)
//  - block dim: CANN's documented range [1, 65535] (guide 0009 "核函数", 0069 "基本流程": blockDim is a logical core
//    count in [1,65535], usually the physical core count or a multiple). 0 or above 65535 is error[block-dim];
//    above the SoC's AIV count (vector kernels; AIC count for cube/MIX) it runs in waves on the chip, reported as a
//    note; the emulator's own launch checks (MIX blockDim > AIC count, SyncAll deadlocks) still apply.
//  - workspace: the sum of the sizes the TilingFunc asked for (GetWorkspaceSizes); kgen's GetUserWorkspace returns
//    the workspace argument itself (CANN CPU-debug semantics), so that sum already covers the user part. 32 bytes
//    when the sum is 0 (CANN passes a valid address to a kernel whose workspace size is 0).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "host/op_host.h"
#include "op/build.h"
#include "op/predict.h"
#include "op/project.h"

namespace kgen::op {
constexpr size_t kTilingCapacity = 16 * 1024;
constexpr uint32_t kMaxBlockDim = 65535;

struct Failure {
  int exit = 3;          // 3: the op/kernel is wrong (as emulator checks), 2: usage, 1: internal
  std::string text;      // "error[CATEGORY] FILE:LINE: message — fix\n" + context lines
};
std::optional<Failure> fail(const std::string& category, const std::string& file, int line, const std::string& msg,
                            int exit = 3);

struct Tensor {
  bool present = true;          // false: an optional input not given
  std::vector<int64_t> shape;
  int dtype = 0;                // ge::DataType; DT_UINT16 also matches a DT_BF16 column (npy.h convention)
  const void* data = nullptr;
  size_t bytes = 0;
  std::string origin;           // where it came from, for messages ("x.npy", "argument 2")
  // Caller memory that the kernel's writes to this input go back to (exec_aclnn: on the chip the input is the
  // tensor's own device memory, so an in-place op such as ForeachZeroInplace changes it); null: not returned.
  void* writeback = nullptr;
  // A DYNAMIC input's tensors (the fields above unused). A single tensor given for a DYNAMIC input is a list of one.
  bool is_list = false;
  std::vector<Tensor> items;
};
// Outputs are numbered by instance (host/op_host.h): an output param is one instance, a DYNAMIC one as many as
// output_counts says (-1 or absent: as many as the first DYNAMIC input has tensors, Foreach's rule).
struct RunSpec {
  std::vector<Tensor> inputs;                              // OpDef input order
  std::vector<host::AttrValue> attrs;                      // OpDef attr order, complete (see parse_attrs)
  std::vector<int> output_counts;                          // per OpDef output: instances of a DYNAMIC one
  std::vector<std::vector<int64_t>> output_shapes;         // per output instance; given[i]=false: infer
  std::vector<bool> output_shape_given;
  // optional, per output instance (exec_aclnn): the caller's tensors' dtypes. The aclnn API takes its outputs
  // allocated, so they and the inputs choose the DataType column; InferDataType, a graph-mode function, is not run
  // for them.
  std::vector<int> output_dtypes;
  std::vector<void*> output_dest;                          // optional: caller memory per output instance (exec_aclnn)
  std::vector<size_t> output_dest_bytes;
  // A timing-only run (sim/timing.h): the kernel's trace at this size, no values. Inputs may come without data
  // (shape and dtype only; a ValueDepend input still needs its data); outputs are not read back.
  bool timing_only = false;
  bool tiling_only = false;   // stop after TilingFunc (with timing_only: inputs by shape): the tiling is the result
  bool trace = false;   // encode the launch trace into RunResult::trace, while the GM buffers it names still exist
  // With `trace`, when set: the encoded trace streamed instead (begin(total bytes), then put(piece) a core at a time;
  // perf::encode_launch), so a timing-only trace of millions of records is never held whole in encoded form.
  std::function<bool(uint64_t)> trace_begin;
  std::function<bool(const std::string&)> trace_put;
};
struct OutputResult {
  std::string name;             // the OpDef's name; "y[2]" for the third tensor of DYNAMIC output y
  size_t param = 0;             // its OpDef output
  std::vector<int64_t> shape;
  int dtype = 0;
  std::vector<uint8_t> data;    // empty when written into output_dest
  size_t elements = 0, unwritten = 0;
  size_t untraced = 0;          // changed from the poison with no traced GM write (written outside the API)
};
struct RunResult {
  std::string op, soc, kernel;
  uint32_t block_dim = 0;
  uint64_t tiling_key = 0;
  size_t tiling_bytes = 0, workspace_bytes = 0;
  std::vector<uint8_t> tiling;      // the tiling data TilingFunc saved (tiling_bytes of them)
  int column = 0;
  bool host_cached = false, kernel_cached = false;
  double build_s = 0;               // compiling the host and kernel libraries in this run (0 when both cached)
  std::vector<OutputResult> outputs;   // per output instance
  std::vector<std::string> notes;   // warning/note lines
  bool timing_only = false;
  uint64_t value_reads = 0;         // timing-only: scalar reads of values the run did not compute (sim/timing.h)
  std::string first_value_read;     // "file:line API"
  uint64_t gm_bytes = 0;            // GM allocated for the launch (tensors, workspace, tiling)
  uint64_t records = 0;             // trace records of the launch, all cores
  std::string trace;                // perf/ktrace_io.h bytes, when RunSpec::trace
};

class OpRunner {
 public:
  // Builds (or takes from the cache) and loads the host library, picks the op (the only one registered, else the
  // one whose snake_case name the kernel file defines or the json names; `want` forces a type).
  std::optional<Failure> open(const Project& p, const std::string& soc, const std::string& want = "");
  const host::OpInfo& info() const { return info_; }
  const Project& project() const { return project_; }
  const std::string& soc() const { return soc_; }
  // Attr values by name (text, as on the command line) -> complete list with defaults; error[op-def] otherwise.
  std::optional<Failure> parse_attrs(const std::vector<std::pair<std::string, std::string>>& given,
                                     std::vector<host::AttrValue>& out) const;
  // Checks a complete attr list (exec_aclnn) for required values.
  std::optional<Failure> run(const RunSpec& spec, RunResult& res);
  // 1-based line of the OpDef's Input/Output/Attr(name) in the host file (0 if not found).
  int param_line(const char* what, const std::string& name) const;

 private:
  std::optional<Failure> pick_column(const std::vector<Tensor>& inputs, const std::vector<int>& want_out,
                                     int& column) const;
  Defines defines_for(int column) const;
  int func_line(const char* setter) const;   // definition line of the function passed to SetTiling / SetInferShape
  Project project_;
  std::string soc_;
  host::OpInfo info_;
  bool host_cached_ = false;
  double host_build_s_ = 0;
};

int param_dtype(const host::ParamInfo& p, int column);   // -1 when the column does not exist for p
int column_count(const host::OpInfo& op);
// The input an output is named as (a ref parameter: one tensor, which the op writes in place), or -1.
int ref_input(const host::OpInfo& op, size_t output);
}  // namespace kgen::op
