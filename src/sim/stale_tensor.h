// A LocalTensor used after FreeTensor released its buffer: the chip has no such fault (a queue's FreeTensor only hands
// the buffer back, its bytes stay until the next writer), so the access runs on the bytes there and the race check
// judges it: a later writer of the buffer not ordered after the use is error[race] (NPUKernelBench's RmsNorm answers
// read rstd after CopyOut freed it, with nothing writing it between). Counted per launch and reported as a warning.
#pragma once
#include <cstdint>
#include <string>

#include "sim/site_count.h"

namespace kgen::sim {
using StaleUses = SiteCount;
void note_stale_use(const char* api, const rt::Loc& loc);
StaleUses stale_uses();
void reset_stale_uses();
// The warning line for the launch of `kernel` ("" when no tensor was used after its FreeTensor).
std::string stale_use_warning(const char* kernel);
}  // namespace kgen::sim
