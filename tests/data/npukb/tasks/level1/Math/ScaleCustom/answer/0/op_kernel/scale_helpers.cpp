// Not the kernel CANN builds (that is op_kernel/scale_custom.cpp, the op's name in snake case), though it includes
// kernel_operator.h too.
#include "kernel_operator.h"
