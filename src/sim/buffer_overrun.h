// An access running past the end of its tensor's buffer but inside the memory. The chip checks no buffer bounds
// (CANN asserts InitBuffer, AllocTensor and TBuf::Get sizes in CPU-debug builds only), so the access reads or writes
// whatever bytes follow, another buffer's included, and the race and uninitialised-read checks judge them as any
// other bytes (NPUKernelBench's FeedsRepeat casts a count rounded up past its TBuf; GroupNormSwishGrad takes more of a
// TBuf than it was given). Counted per launch and reported as a warning; beyond the memory is error[ub-overflow].
#pragma once
#include <cstdint>
#include <string>

#include "sim/site_count.h"

namespace kgen::sim {
// `what`: the access, e.g. "writes UB[928, 1184) past the end of its buffer UB[928, 960) by 224 bytes".
void note_buffer_overrun(const char* api, const rt::Loc& loc, const std::string& what);
void reset_buffer_overruns();
// The warning line for the launch of `kernel` ("" when no access ran past its buffer).
std::string buffer_overrun_warning(const char* kernel);
}  // namespace kgen::sim
