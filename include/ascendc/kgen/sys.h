// Core identity, kernel type and the system clock.
#pragma once
#include "kgen/runtime.h"

namespace AscendC {
inline int64_t GetBlockIdx() { return kgen::rt::block_idx(); }
inline int64_t GetBlockNum() { return kgen::rt::block_num(); }
inline int64_t GetSubBlockIdx() { return kgen::rt::sub_block_idx(); }
inline int64_t GetSubBlockNum() { return kgen::rt::task_ratio(); }
inline int64_t GetTaskRatio() { return kgen::rt::task_ratio(); }
inline int64_t GetSystemCycle() { return kgen::rt::system_cycle(); }
}  // namespace AscendC

extern int8_t g_coreType;   // AscendC::AIV or AscendC::AIC for the running core
#define ASCEND_IS_AIV (g_coreType == AscendC::AIV)
#define ASCEND_IS_AIC (g_coreType == AscendC::AIC)
#define ASCEND_IS_NOT_AIV (g_coreType != AscendC::AIV)
#define ASCEND_IS_NOT_AIC (g_coreType != AscendC::AIC)
#define KERNEL_TASK_TYPE_DEFAULT(value) ::kgen::rt::set_kernel_type(value)
#define KERNEL_TASK_TYPE(key, value) ((void)(key), ::kgen::rt::set_kernel_type(value))

// GET_TILING_DATA copies the tiling blob into a struct of the registered type (REGISTER_TILING_DEFAULT).
#define REGISTER_TILING_DEFAULT(tilingStruct) using KgenDefaultTilingType = tilingStruct
#define GET_TILING_DATA(tilingData, tilingArg) \
  KgenDefaultTilingType tilingData;             \
  ::kgen::rt::tiling_copy(&tilingData, (tilingArg), sizeof(KgenDefaultTilingType), ::kgen::rt::Loc::current())
#define GET_TILING_DATA_WITH_STRUCT(tilingStruct, tilingData, tilingArg) \
  tilingStruct tilingData;                                                \
  ::kgen::rt::tiling_copy(&tilingData, (tilingArg), sizeof(tilingStruct), ::kgen::rt::Loc::current())
#define TILING_KEY_IS(key) (::kgen::rt::tiling_key() == (key))
