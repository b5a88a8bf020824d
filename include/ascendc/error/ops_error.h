// CANN error/ops_error.h: error reports of CANN's op projects. On the chip they log and register an error code
// (E89999 vector, E69999 cube) that aclGetRecentErrMsg returns; here they log to stderr, which kgen's diagnostics show.
#pragma once
#include "log/ops_log.h"

#define OPS_REPORT_VECTOR_INNER_ERR(OPS_DESC, ...) OPS_INNER_ERR_STUB("E89999", OPS_DESC, __VA_ARGS__)
#define OPS_REPORT_CUBE_INNER_ERR(OPS_DESC, ...) OPS_INNER_ERR_STUB("E69999", OPS_DESC, __VA_ARGS__)
#define OPS_ERR_IF(COND, LOG_FUNC, EXPR) OPS_LOG_STUB_IF(COND, LOG_FUNC, EXPR)
