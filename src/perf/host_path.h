// The host path of an operator called from PyTorch on the NPU: torch_npu's dispatch and the aclnn call run on the
// host (host_us), then the op's kernel on the device (device_us: the back-to-back launch head of its kind + its body).
// An eager aten op and a custom op (ModelNew calling the candidate through EXEC_NPU_CMD and aclnn) take the same
// path, so both sides of a speedup are timed the same way (docs/perf-model.md, "The host path").
//
// The host runs ahead of the device: call i is dispatched when the host has finished call i-1, and its kernel starts
// at max(the end of its dispatch, the end of the previous kernel). e2e_us() is what an event pair around
// model(*inputs), synchronised after each trial (MultiKernelBench, KernelBench), measures: the first dispatch is
// inside it, because the device is idle when the start event is recorded.
#pragma once
#include <algorithm>

namespace kgen::perf {
struct HostPath {
  double host = 0;     // end of the last dispatch (from the first dispatch's start)
  double device = 0;   // end of the last kernel
  // Adds one call; returns the start of its kernel (device_us = 0: a view, host work only).
  double call(double host_us, double device_us) {
    host += host_us;
    if (device_us <= 0) return host;
    const double start = std::max(host, device);
    device = start + device_us;
    return start;
  }
  double e2e_us() const { return std::max(host, device); }
};
}  // namespace kgen::perf
