// The L0 op of the aclnn layer (see aclnn_scale_custom.cpp): not built by the emulator.
#include "opdev/op_def.h"
#include "scale_custom_l0.h"
