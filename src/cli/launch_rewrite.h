// Rewrites CUDA-style kernel launches `kernel<<<blockDim, l2ctrl, stream>>>(args...)` into calls of the
// emulator's launcher, so that kernel-launch style host programs run unchanged.
#pragma once
#include <string>

namespace kgen::cli {
// Returns the rewritten source; `changed` tells whether any launch was found.
std::string rewrite_launches(const std::string& src, bool& changed);
}  // namespace kgen::cli
