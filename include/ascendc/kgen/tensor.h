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
// What LocalTensor::operator() and GlobalTensor::operator() give: one element, read and written through the traced
// scalar path (CANN's signature returns T&; an element proxy keeps `t(i) = v`, `T v = t(i)` and `t(i) += v`
// working without handing out a pointer into emulated memory).
template <class T, class Access> class Elem {
 public:
  Elem(Access a, rt::Loc loc) : a_(a), loc_(loc) {}
  operator T() const { T v; a_.load(&v, loc_); return v; }
  Elem& operator=(const T& v) { a_.store(&v, loc_); return *this; }
  Elem& operator=(const Elem& o) { return *this = static_cast<T>(o); }
  Elem& operator+=(const T& v) { return *this = static_cast<T>(static_cast<T>(*this) + v); }
  Elem& operator-=(const T& v) { return *this = static_cast<T>(static_cast<T>(*this) - v); }
  Elem& operator*=(const T& v) { return *this = static_cast<T>(static_cast<T>(*this) * v); }
  Elem& operator/=(const T& v) { return *this = static_cast<T>(static_cast<T>(*this) / v); }
 private:
  Access a_;
  rt::Loc loc_;
};
template <class T> struct LocalAccess {
  rt::LocalRef r; uint32_t index;
  void load(T* v, rt::Loc loc) const { rt::local_load(r, index, sizeof(T), v, "operator()", loc); }
  void store(const T* v, rt::Loc loc) const { rt::local_store(r, index, sizeof(T), v, "operator()", loc); }
};
template <class T> struct GmAccess {
  T* p;
  void load(T* v, rt::Loc loc) const { rt::gm_load(p, sizeof(T), v, "operator()", loc); }
  void store(const T* v, rt::Loc loc) const { rt::gm_store(p, sizeof(T), v, "operator()", loc); }
};
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
    T v; kgen::rt::local_load(ref_, index, sizeof(T), &v, "GetValue", loc); return v;
  }
  void SetValue(const uint32_t index, const T value, kgen::rt::Loc loc = kgen::rt::Loc::current()) const {
    kgen::rt::local_store(ref_, index, sizeof(T), &value, "SetValue", loc);
  }
  kgen::Elem<T, kgen::LocalAccess<T>> operator()(const uint32_t index, kgen::rt::Loc loc = kgen::rt::Loc::current()) const {
    return {kgen::LocalAccess<T>{ref_, index}, loc};
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
    T v; kgen::rt::gm_load(address_ + offset, sizeof(T), &v, "GetValue", loc); return v;
  }
  void SetValue(const uint64_t offset, const T value, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    kgen::rt::gm_store(address_ + offset, sizeof(T), &value, "SetValue", loc);
  }
  kgen::Elem<T, kgen::GmAccess<T>> operator()(const uint64_t offset, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    return {kgen::GmAccess<T>{address_ + offset}, loc};
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
