// CANN exe_graph/runtime/tensor.h (older include path of gert::Tensor).
#pragma once
#include "exe_graph/runtime/runtime_tensor.h"
