// The scalar math bisheng provides in kernel code: sqrt and abs, at global scope as the device compiler has them
// (AscendC::Std wraps exactly these two: asc-devkit include/utils/std/cmath.h). `kgen cc` refuses every other libm
// function in __aicore__ code (src/cli/bisheng_rules.h), as bisheng does.
#pragma once
#include <cmath>
#include <cstdlib>

using std::abs;
using std::sqrt;
