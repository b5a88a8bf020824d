// Core identity, kernel type, workspace and the system clock.
#pragma once
#include "kgen/runtime.h"
#include "kgen/cross_core.h"

namespace kgen::rt {
void kernel_task_type(int type, Loc loc);                  // KERNEL_TASK_TYPE_DEFAULT
void kernel_task_type_key(uint64_t key, int type, Loc loc);  // KERNEL_TASK_TYPE
uint8_t* sys_workspace();
void set_sys_workspace(const uint8_t* workspace, const char* api, Loc loc);
uint8_t* user_workspace(uint8_t* workspace, Loc loc);
}  // namespace kgen::rt

// Global in CANN (kernel_operator_swap_mem_intf.h), and AscendC::GetSysWorkSpacePtr names the same function.
inline uint8_t* GetSysWorkSpacePtr() { return kgen::rt::sys_workspace(); }

namespace AscendC {
// On an AIV of a MIX kernel GetBlockIdx() = block * GetTaskRatio() + GetSubBlockIdx(); GetBlockNum() is blockDim.
inline int64_t GetBlockIdx() { return kgen::rt::block_idx(); }
inline int64_t GetBlockNum() { return kgen::rt::block_num(); }
inline int64_t GetSubBlockIdx() { return kgen::rt::sub_block_idx(); }
inline int64_t GetSubBlockNum() { return kgen::rt::task_ratio(); }
inline int64_t GetTaskRatio() { return kgen::rt::task_ratio(); }
inline int64_t GetSystemCycle() { return kgen::rt::system_cycle(); }

// Workspace (CANN CPU-debug semantics): the system workspace is the emulator's own GM buffer (16 MB, what
// GetLibApiWorkSpaceSize reserves); the kernel's workspace argument is the user workspace.
using ::GetSysWorkSpacePtr;
inline void SetSysWorkspace(GM_ADDR workspace, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::set_sys_workspace(workspace, "SetSysWorkspace", loc);
}
inline void SetSysWorkspaceForce(GM_ADDR workspace, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::set_sys_workspace(workspace, "SetSysWorkspaceForce", loc);
}
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  return kgen::rt::user_workspace(workspace, loc);
}
}  // namespace AscendC

// bisheng's builtins under those calls, which kernels may call themselves (docs/sources.md S60): get_block_idx() is the
// block (0 .. blockDim-1 on an AIC and its AIVs alike), get_block_num() blockDim, get_subblockid() an AIV's index in
// its block (0 on an AIC), get_subblockdim() the task ratio (1 on an AIC).
inline int64_t get_block_idx() { return (kgen::rt::block_idx() - kgen::rt::sub_block_idx()) / kgen::rt::task_ratio(); }
inline int64_t get_block_num() { return kgen::rt::block_num(); }
inline int64_t get_subblockid() { return kgen::rt::sub_block_idx(); }
inline int64_t get_subblockdim() { return kgen::rt::task_ratio(); }

// bisheng's built-in variables (S81): block_idx is get_block_idx() (the two AIVs of a MIX block share it, unlike
// GetBlockIdx()), block_num blockDim, sub_block_idx / sub_block_num an AIV's index in its block and the task ratio.
// Objects, not macros: a kernel's own variable of the same name shadows them, as it does bisheng's.
struct KgenBuiltinVar {
  int64_t (*get)();
  operator int64_t() const { return get(); }
};
inline constexpr KgenBuiltinVar block_idx{get_block_idx};
inline constexpr KgenBuiltinVar block_num{get_block_num};
inline constexpr KgenBuiltinVar sub_block_idx{get_subblockid};
inline constexpr KgenBuiltinVar sub_block_num{get_subblockdim};

#ifdef KGEN_CORE_TYPE
// A per-core-type build (op/build.h: a kernel that uses g_coreType as a constant, e.g. as a template argument, is
// built once per core type, as bisheng builds a MIX kernel for dav-c220-cube and dav-c220-vec): the constant CANN
// documents ("constexpr int32_t g_coreType", SIMD BuiltIn keywords, docs/sources.md S45), and the core guards as the
// device build defines them, so the other core type's branch is discarded.
constexpr int32_t g_coreType = KGEN_CORE_TYPE;
#define ASCEND_IS_AIV constexpr(g_coreType == AscendC::AIV)
#define ASCEND_IS_AIC constexpr(g_coreType == AscendC::AIC)
#define ASCEND_IS_NOT_AIV constexpr(g_coreType != AscendC::AIV)
#define ASCEND_IS_NOT_AIC constexpr(g_coreType != AscendC::AIC)
#else
extern int8_t g_coreType;   // AscendC::AIV or AscendC::AIC for the running core
#define ASCEND_IS_AIV (g_coreType == AscendC::AIV)
#define ASCEND_IS_AIC (g_coreType == AscendC::AIC)
#define ASCEND_IS_NOT_AIV (g_coreType != AscendC::AIV)
#define ASCEND_IS_NOT_AIC (g_coreType != AscendC::AIC)
#endif
// Executed where the kernel states it: as its first statement the launch (re)starts with the cores the type
// needs; later, after GM was written, a type that needs other cores is an error[param].
#define KERNEL_TASK_TYPE_DEFAULT(value) ::kgen::rt::kernel_task_type((value), ::kgen::rt::Loc::current())
#define KERNEL_TASK_TYPE(key, value) ::kgen::rt::kernel_task_type_key((key), (value), ::kgen::rt::Loc::current())

// GET_TILING_DATA copies the tiling blob into a struct of the registered type (REGISTER_TILING_DEFAULT).
#define REGISTER_TILING_DEFAULT(tilingStruct) using KgenDefaultTilingType = tilingStruct
#define GET_TILING_DATA(tilingData, tilingArg) \
  KgenDefaultTilingType tilingData;             \
  ::kgen::rt::tiling_copy(&tilingData, (tilingArg), sizeof(KgenDefaultTilingType), ::kgen::rt::Loc::current())
#define GET_TILING_DATA_WITH_STRUCT(tilingStruct, tilingData, tilingArg) \
  tilingStruct tilingData;                                                \
  ::kgen::rt::tiling_copy(&tilingData, (tilingArg), sizeof(tilingStruct), ::kgen::rt::Loc::current())
#define TILING_KEY_IS(key) (::kgen::rt::tiling_key() == (key))
