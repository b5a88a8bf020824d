// The eager PyTorch (torch_npu) baseline model: given the aten ops of a reference forward (recorded by
// scripts/aten_trace.py), the modeled time of running them eagerly on an Ascend NPU.
//
// Per op:  device_us = head + exec_us, head = the SoC profile's back-to-back launch head of the op's kernel kind
// (cube for matmul/conv, vector for the rest: the same heads as a custom kernel's), exec_us = a roofline with
// per-class efficiency:
//   matmul/conv: the cube work split into base tiles (the best of EagerConsts::tiles) over the AIC cores in waves;
//                a tile costs max(cube time, its operand traffic at the per-core GM->L1 rate, shared L2 rate)
//                + tile_fixed_us; the whole op is at least its bytes over HBM;
//   others:      max(bytes / (HBM * bw_eff), flops / (vector peak * compute_eff)).
// Host: each op costs host_dispatch_us on the host (views host_view_us and no device work), on the host path shared
// with custom ops (host_path.h). e2e_us = end of the last op, measured from the first dispatch (what an event pair
// around model(*inputs) sees, as in MultiKernelBench); device_us = sum of the device times (what back-to-back
// do_bench loops see).
// Constants: hardware/eager/torch_npu.json; chip numbers from the SoC profile. Sources: docs/perf-model.md.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "perf/profile.h"

namespace kgen::perf {

struct EagerClass {
  double compute_eff = 1;    // fraction of cube (matmul/conv) or vector peak reached
  double bw_eff = 1;         // fraction of the profile's achievable HBM bandwidth reached
  double tile_fixed_us = 0;  // matmul/conv: per base tile pipeline fill/drain
};
struct EagerConsts {
  std::string file;
  double host_dispatch_us = 5;   // one op call through torch_npu and aclnn, eager or custom (host_path.h)
  double host_view_us = 1;
  std::vector<std::pair<uint32_t, uint32_t>> tiles;   // matmul base tiles (m, n)
  std::map<std::string, EagerClass> classes;          // by op class; "other" is the fallback
  const EagerClass& cls(const std::string& c) const;
};
// Loads hardware/eager/torch_npu.json (or `path`). Throws std::runtime_error with a readable message.
EagerConsts load_eager_consts(const std::string& path = "");

struct TensorDesc {
  std::vector<int64_t> shape;
  std::string dtype;          // "float32", "float16", ...
};
struct AtenOp {
  std::string name;           // "addmm"
  std::string cls;            // matmul, conv, elementwise, copy, reduction, softmax, norm, view, other
  std::vector<TensorDesc> inputs, outputs;
  double flops = 0;
  double bytes = 0;
  int64_t batch = 0, m = 0, n = 0, k = 0;   // matmul shape (0: unknown)
};
// Parses the JSON printed by scripts/aten_trace.py. Throws std::runtime_error on malformed input.
std::vector<AtenOp> parse_aten_json(const std::string& text);
uint32_t dtype_size(const std::string& dtype);

struct EagerOpTime {
  std::string name, cls;
  double flops = 0, bytes = 0;
  double host_us = 0;         // host dispatch
  double head_us = 0;         // device launch/head overhead
  double exec_us = 0;         // the op's own time
  double device_us = 0;       // head + exec
  double start_us = 0, end_us = 0;   // on the device timeline (from the first dispatch)
  std::string bound;          // host (device idle waiting for dispatch), launch, HBM, L2, cube, vector, none (views)
};
struct EagerResult {
  std::string soc;
  std::vector<EagerOpTime> ops;
  double device_us = 0;       // sum of device times (back-to-back, host hidden)
  double exec_us = 0;         // of which the ops' own work (launch heads excluded)
  double host_us = 0;         // sum of host dispatch
  double e2e_us = 0;          // host and device pipelined, from the first dispatch to the last op's end
};

// One op's device time (host_us filled, timeline fields left 0).
EagerOpTime model_eager_op(const AtenOp& op, const Profile& p, const EagerConsts& c);
EagerResult model_eager(const std::vector<AtenOp>& ops, const Profile& p, const EagerConsts& c);

// Helpers for synthetic ops (calibration, tests).
AtenOp eager_matmul(int64_t m, int64_t n, int64_t k, const std::string& dtype = "float16");
AtenOp eager_elementwise(const std::string& name, int64_t elems, int inputs, const std::string& dtype = "float32");
}  // namespace kgen::perf
