// Pipe synchronisation (flags, barriers), cross-core SyncAll and GM atomics.
#pragma once
#include "kgen/tensor.h"

namespace AscendC {
template <HardEvent event> void SetFlag(int32_t eventID, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::set_flag(event, eventID, loc);
}
template <HardEvent event> void WaitFlag(int32_t eventID, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::wait_flag(event, eventID, loc);
}
template <pipe_t pipe> void PipeBarrier(kgen::rt::Loc loc = kgen::rt::Loc::current()) { kgen::rt::pipe_barrier(pipe, loc); }
template <MemDsbT arg0> void DataSyncBarrier(kgen::rt::Loc loc = kgen::rt::Loc::current()) { kgen::rt::data_sync_barrier(loc); }
template <bool isAIVOnly = true> void SyncAll(kgen::rt::Loc loc = kgen::rt::Loc::current()) { kgen::rt::sync_all(loc, isAIVOnly); }
// The software form: each vector core flags its slot of gmWorkspace and polls the others' (CANN's SyncAll docs);
// vector cores only, gmWorkspace and ubWorkspace of GetBlockNum() * 32 bytes at least, usedCores cores meet (0: all).
template <bool isAIVOnly = true>
void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, const int32_t usedCores = 0,
             kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::sync_all_soft(gmWorkspace.GetPhyAddr(), static_cast<uint64_t>(gmWorkspace.GetSize()) * sizeof(int32_t),
                          kgen::TensorAccess::ref(ubWorkspace), usedCores, isAIVOnly, loc);
}

template <typename T> void SetAtomicAdd(kgen::rt::Loc loc = kgen::rt::Loc::current()) { kgen::rt::set_atomic(kgen::dtype_of<T>(), 1, loc); }
template <typename T> void SetAtomicMax(kgen::rt::Loc loc = kgen::rt::Loc::current()) { kgen::rt::set_atomic(kgen::dtype_of<T>(), 2, loc); }
template <typename T> void SetAtomicMin(kgen::rt::Loc loc = kgen::rt::Loc::current()) { kgen::rt::set_atomic(kgen::dtype_of<T>(), 3, loc); }
inline void SetAtomicNone(kgen::rt::Loc loc = kgen::rt::Loc::current()) { kgen::rt::set_atomic(kgen::DType::Unknown, 0, loc); }
// The scalar unit's data cache: the emulator writes GM through, so these only check the tensor (see docs).
template <typename T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const GlobalTensor<T>& dstTensor, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::gm_check(dstTensor.GetPhyAddr(), 1, false, "DataCacheCleanAndInvalid", loc);
}
template <typename T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const LocalTensor<T>& dstTensor, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::local_check_view(kgen::TensorAccess::ref(dstTensor), "DataCacheCleanAndInvalid", loc);
}
template <typename T, CacheLine entireType>
void DataCacheCleanAndInvalid(const GlobalTensor<T>& dstTensor, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
  kgen::rt::gm_check(dstTensor.GetPhyAddr(), 1, false, "DataCacheCleanAndInvalid", loc);
}
}  // namespace AscendC
