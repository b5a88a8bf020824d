// TPipe (per-memory bump allocator of queue buffers), TQue/TQueBind (queues with implied pipe sync), TBuf.
#pragma once
#include "kgen/tensor.h"

namespace AscendC {
using TBufHandle = uint8_t*;   // a queue buffer's handle (CANN: kernel_tensor_base.h); opaque here
class TPipe;

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0> class TQueBind {
 public:
  static constexpr bool isTQue = true;   // what TPipe::InitBuffer(que, num, len) accepts, as in CANN
  static constexpr TPosition srcPosition = src, dstPosition = dst;
  static constexpr int32_t queDepth = depth;
  TQueBind() = default;
  template <typename T> LocalTensor<T> AllocTensor(kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    return kgen::TensorAccess::make<T>(kgen::rt::queue_alloc(handle_, sizeof(T), loc));
  }
  template <typename T> void AllocTensor(LocalTensor<T>& t, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    t = kgen::TensorAccess::make<T>(kgen::rt::queue_alloc(handle_, sizeof(T), loc));
  }
  template <typename T> void FreeTensor(LocalTensor<T>& t, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    kgen::rt::queue_free(handle_, kgen::TensorAccess::ref(t), loc);
  }
  template <typename T> bool EnQue(const LocalTensor<T>& t, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    return kgen::rt::queue_enque(handle_, kgen::TensorAccess::ref(t), loc);
  }
  template <TPosition srcUserPos, TPosition dstUserPos, typename T>
  bool EnQue(const LocalTensor<T>& t, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    return kgen::rt::queue_enque(handle_, kgen::TensorAccess::ref(t), loc);
  }
  template <typename T> LocalTensor<T> DeQue(kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    return kgen::TensorAccess::make<T>(kgen::rt::queue_deque(handle_, loc));
  }
  template <TPosition srcUserPos, TPosition dstUserPos, typename T>
  LocalTensor<T> DeQue(kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    return kgen::TensorAccess::make<T>(kgen::rt::queue_deque(handle_, loc));
  }
  // CANN's untyped form: dequeues as DeQue<T>() does and returns the buffer's handle (an opaque token here).
  TBufHandle DeQue(kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    return reinterpret_cast<TBufHandle>(static_cast<uintptr_t>(kgen::rt::queue_deque(handle_, loc).buf) + 1);
  }
  template <typename T> void DeQue(LocalTensor<T>& t, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    t = kgen::TensorAccess::make<T>(kgen::rt::queue_deque(handle_, loc));
  }
  bool VacantInQue() { return kgen::rt::queue_query(handle_, 0) != 0; }
  bool HasTensorInQue() { return kgen::rt::queue_query(handle_, 1) != 0; }
  int32_t GetTensorCountInQue() { return kgen::rt::queue_query(handle_, 2); }
  bool HasIdleBuffer() { return kgen::rt::queue_query(handle_, 3) != 0; }
  void FreeAllEvent() { kgen::rt::queue_free_all_events(handle_); }

 private:
  friend class TPipe;
  int32_t handle_ = -1;
};

template <TPosition pos, int32_t depth, auto mask = 0> class TQue : public TQueBind<pos, pos, depth, mask> {};

template <TPosition pos = TPosition::VECCALC> class TBuf {
 public:
  static constexpr bool isTQue = false;
  TBuf() = default;
  template <typename T> LocalTensor<T> Get(kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    return kgen::TensorAccess::make<T>(kgen::rt::tbuf_get(handle_, 0, sizeof(T), 0, true, loc));
  }
  template <typename T> LocalTensor<T> Get(uint32_t len, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    return kgen::TensorAccess::make<T>(kgen::rt::tbuf_get(handle_, len, sizeof(T), 0, false, loc));
  }
  template <typename T> LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    return kgen::TensorAccess::make<T>(kgen::rt::tbuf_get(handle_, size, sizeof(T), bufOffset, false, loc));
  }
  // The queue calls CANN's TBuf inherits (kernel_tbuf_impl.h): AllocTensor and DeQue are Get, EnQue and
  // FreeTensor do nothing (a TBuf implies no synchronisation).
  template <typename T> LocalTensor<T> AllocTensor(kgen::rt::Loc loc = kgen::rt::Loc::current()) { return Get<T>(loc); }
  template <typename T> LocalTensor<T> DeQue(kgen::rt::Loc loc = kgen::rt::Loc::current()) { return Get<T>(loc); }
  template <typename T> void EnQue(const LocalTensor<T>&) {}
  template <typename T> void FreeTensor(LocalTensor<T>&) {}

 private:
  friend class TPipe;
  int32_t handle_ = -1;
};

class TPipe {
 public:
  TPipe(kgen::rt::Loc loc = kgen::rt::Loc::current()) : id_(kgen::rt::pipe_create(this, loc)) {}
  ~TPipe() { kgen::rt::pipe_destroy(id_); }
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;
  void Init(kgen::rt::Loc loc = kgen::rt::Loc::current()) { kgen::rt::pipe_reset(id_, loc); }
  void Destroy(kgen::rt::Loc loc = kgen::rt::Loc::current()) { kgen::rt::pipe_release(id_, loc); }
  void Reset(kgen::rt::Loc loc = kgen::rt::Loc::current()) { kgen::rt::pipe_reset(id_, loc); }
  // CANN's form: any queue type T (so `InitBuffer<decltype(que)>(que, ...)` compiles too), a TBuf refused.
  template <class T>
  bool InitBuffer(T& que, uint8_t num, uint32_t len, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    static_assert((T::isTQue), "TPipe::InitBuffer(T& que, uint8_t num, uint32_t len) not supports T as TBuf");
    if constexpr (T::isTQue)   // no follow-on errors after the assertion
      return kgen::rt::pipe_init_queue(id_, que.handle_, T::srcPosition, T::dstPosition, T::queDepth, num, len, loc);
    else
      return false;
  }
  template <TPosition pos>
  bool InitBuffer(TBuf<pos>& buf, uint32_t len, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    return kgen::rt::pipe_init_tbuf(id_, buf.handle_, pos, len, loc);
  }
  template <HardEvent evt> int8_t AllocEventID(kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    return static_cast<int8_t>(kgen::rt::pipe_alloc_event(id_, evt, loc));
  }
  template <HardEvent evt> void ReleaseEventID(int8_t id) { kgen::rt::pipe_release_event(id_, evt, id); }
  template <HardEvent evt> int8_t FetchEventID() { return static_cast<int8_t>(kgen::rt::pipe_fetch_event(id_, evt)); }
  int8_t FetchEventID(HardEvent evt) { return static_cast<int8_t>(kgen::rt::pipe_fetch_event(id_, evt)); }

 private:
  int32_t id_;
};
using TEventID = int8_t;
}  // namespace AscendC

// Global in CANN (kernel_common.h); also reachable as AscendC::GetTPipePtr, the same function, so that
// `using namespace AscendC;` leaves one candidate.
inline AscendC::TPipe* GetTPipePtr() { return static_cast<AscendC::TPipe*>(kgen::rt::current_pipe_object()); }
namespace AscendC {
using ::GetTPipePtr;
}  // namespace AscendC
