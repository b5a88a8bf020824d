// The aclnn L2 API of a cann-ops project, over CANN's opdev framework. The emulator does not build this layer (its
// generated aclnn call stands in for it), so these headers need not exist.
#include "opdev/op_executor.h"
#include "opdev/make_op_executor.h"
#include "aclnn_kernels/contiguous.h"   // CANN's own aclnn kernels: allowed only because this layer is not built
#include "scale_custom_l0.h"

aclnnStatus aclnnScaleCustomGetWorkspaceSize(const aclTensor* x, const aclScalar* alpha, aclTensor* y,
                                             uint64_t* workspaceSize, aclOpExecutor** executor);
