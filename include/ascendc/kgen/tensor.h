// LocalTensor (a view of on-chip memory) and GlobalTensor (a view of GM), as in CANN.
#pragma once
#include "kgen/runtime.h"
#include "kgen/vec_runtime.h"

namespace AscendC {
template <typename T> class LocalTensor;
template <typename T> class GlobalTensor;
using TTagType = int32_t;
}  // namespace AscendC

namespace kgen {
// Reaches the descriptor inside a tensor; the tensor classes keep it private so their surface stays CANN's.
struct TensorAccess {
  template <class T> static const rt::LocalRef& ref(const AscendC::LocalTensor<T>& t) { return t.ref_; }
  template <class T> static AscendC::LocalTensor<T> make(const rt::LocalRef& r) { AscendC::LocalTensor<T> t; t.ref_ = r; return t; }
};
// An operand of `dst = a + b`, carrying the source line of the expression.
template <class T> struct LocOperand {
  rt::LocalRef r; rt::Loc loc;
  LocOperand(const AscendC::LocalTensor<T>& t, rt::Loc l = rt::Loc::current()) : r(TensorAccess::ref(t)), loc(l) {}
};
template <class T> struct VecExpr { rt::VOp op; rt::LocalRef a, b; rt::Loc loc; };
template <class T> struct CmpExpr;   // `a < b` etc., defined in kgen/vec_compare.h
}  // namespace kgen

namespace AscendC {
template <typename T> class LocalTensor {
 public:
  using PrimType = T;
  LocalTensor() = default;
  LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize) {
    ref_.pos = pos; ref_.addr = addr; ref_.len = tileSize * sizeof(T);
  }
  T GetValue(const uint32_t index, kgen::rt::Loc loc = kgen::rt::Loc::current()) const {
    T v; std::memcpy(&v, kgen::rt::local_scalar(ref_, index, sizeof(T), false, "GetValue", loc), sizeof(T)); return v;
  }
  void SetValue(const uint32_t index, const T value, kgen::rt::Loc loc = kgen::rt::Loc::current()) const {
    std::memcpy(kgen::rt::local_scalar(ref_, index, sizeof(T), true, "SetValue", loc), &value, sizeof(T));
  }
  T& operator()(const uint32_t index, kgen::rt::Loc loc = kgen::rt::Loc::current()) const {
    return *reinterpret_cast<T*>(kgen::rt::local_scalar(ref_, index, sizeof(T), true, "operator()", loc));
  }
  LocalTensor operator[](const uint32_t offset) const {
    LocalTensor t = *this;
    uint64_t bytes = static_cast<uint64_t>(offset) * sizeof(T);
    t.ref_.addr = ref_.addr + static_cast<uint32_t>(bytes);
    t.ref_.len = bytes >= ref_.len ? 0 : ref_.len - static_cast<uint32_t>(bytes);
    return t;
  }
  uint32_t GetSize() const { return ref_.len / sizeof(T); }
  void SetSize(const uint32_t size) { ref_.len = size * sizeof(T); }
  uint32_t GetLength() const { return ref_.len; }
  template <typename CAST_T> LocalTensor<CAST_T> ReinterpretCast() const {
    return kgen::TensorAccess::make<CAST_T>(ref_);
  }
  uint64_t GetPhyAddr() const { return ref_.addr; }
  uint64_t GetPhyAddr(const uint32_t offset) const { return ref_.addr + offset * sizeof(T); }
  TPosition GetPosition() const { return ref_.pos; }
  void SetUserTag(const TTagType tag) { tag_ = tag; }
  TTagType GetUserTag() const { return tag_; }
  template <typename T1> void SetAddrWithOffset(LocalTensor<T1>& src, uint32_t offset) {
    const kgen::rt::LocalRef& s = kgen::TensorAccess::ref(src);
    ref_ = s; ref_.addr = s.addr + offset * sizeof(T1); ref_.len = s.len > offset * sizeof(T1) ? s.len - offset * sizeof(T1) : 0;
  }
  void SetBufferLen(uint32_t dataLen) { ref_.len = dataLen; }

  template <class S> LocalTensor& operator=(const kgen::CmpExpr<S>& e) {   // dst = src0 < src1 (Compare)
    cmp_assign(kgen::dtype_of<T>(), ref_, e);
    return *this;
  }
  LocalTensor& operator=(const kgen::VecExpr<T>& e) {
    kgen::rt::vec_binary(e.op, kgen::dtype_of<T>(), ref_, e.a, e.b, GetSize(), e.loc);
    return *this;
  }
  friend kgen::VecExpr<T> operator+(const LocalTensor& a, const kgen::LocOperand<T>& b) { return {kgen::rt::VOp::Add, a.ref_, b.r, b.loc}; }
  friend kgen::VecExpr<T> operator-(const LocalTensor& a, const kgen::LocOperand<T>& b) { return {kgen::rt::VOp::Sub, a.ref_, b.r, b.loc}; }
  friend kgen::VecExpr<T> operator*(const LocalTensor& a, const kgen::LocOperand<T>& b) { return {kgen::rt::VOp::Mul, a.ref_, b.r, b.loc}; }
  friend kgen::VecExpr<T> operator/(const LocalTensor& a, const kgen::LocOperand<T>& b) { return {kgen::rt::VOp::Div, a.ref_, b.r, b.loc}; }
  friend kgen::VecExpr<T> operator|(const LocalTensor& a, const kgen::LocOperand<T>& b) { return {kgen::rt::VOp::Or, a.ref_, b.r, b.loc}; }
  friend kgen::VecExpr<T> operator&(const LocalTensor& a, const kgen::LocOperand<T>& b) { return {kgen::rt::VOp::And, a.ref_, b.r, b.loc}; }

 private:
  friend struct kgen::TensorAccess;
  kgen::rt::LocalRef ref_;
  TTagType tag_ = 0;
};

template <typename T> class GlobalTensor {
 public:
  using PrimType = T;
  GlobalTensor() = default;
  void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize) { address_ = buffer; bufferSize_ = bufferSize; }
  void SetGlobalBuffer(__gm__ T* buffer) { address_ = buffer; bufferSize_ = 0; }
  const __gm__ T* GetPhyAddr() const { return address_; }
  __gm__ T* GetPhyAddr(const uint64_t offset) const { return address_ + offset; }
  T GetValue(const uint64_t offset, kgen::rt::Loc loc = kgen::rt::Loc::current()) const {
    T v; std::memcpy(&v, kgen::rt::gm_scalar(address_ + offset, sizeof(T), false, "GetValue", loc), sizeof(T)); return v;
  }
  void SetValue(const uint64_t offset, const T value, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    std::memcpy(kgen::rt::gm_scalar(address_ + offset, sizeof(T), true, "SetValue", loc), &value, sizeof(T));
  }
  __gm__ T& operator()(const uint64_t offset, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    return *reinterpret_cast<T*>(kgen::rt::gm_scalar(address_ + offset, sizeof(T), true, "operator()", loc));
  }
  GlobalTensor operator[](const uint64_t offset) const {
    GlobalTensor t = *this; t.address_ = address_ + offset;
    t.bufferSize_ = bufferSize_ > offset ? bufferSize_ - offset : 0;
    return t;
  }
  uint64_t GetSize() const { return bufferSize_; }
  void SetL2CacheHint(CacheMode mode) { cacheMode_ = mode; }

  __gm__ T* address_ = nullptr;

 private:
  uint64_t bufferSize_ = 0;
  CacheMode cacheMode_ = CacheMode::CACHE_MODE_NORMAL;
};
}  // namespace AscendC
