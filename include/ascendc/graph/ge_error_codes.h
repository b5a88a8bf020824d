// CANN graph/ge_error_codes.h: the status type of InferShape / InferDataType / TilingFunc.
#pragma once
#include <cstdint>

namespace ge {
using graphStatus = uint32_t;
const graphStatus GRAPH_FAILED = 0xFFFFFFFF;
const graphStatus GRAPH_SUCCESS = 0;
const graphStatus GRAPH_NOT_CHANGED = 1343242304;
const graphStatus GRAPH_PARAM_INVALID = 50331649;
const graphStatus GRAPH_NODE_WITHOUT_CONST_INPUT = 50331648;
const graphStatus GRAPH_NODE_NEED_REPASS = 50331647;
const graphStatus GRAPH_INVALID_IR_DEF = 50331646;
// GE's generic status (ge_api_error_codes.h), reachable through CANN's host headers: op projects compare a
// graphStatus with it (NPUKernelBench's AddRmsNormQuant answer).
using Status = uint32_t;
constexpr Status SUCCESS = 0;
}  // namespace ge
