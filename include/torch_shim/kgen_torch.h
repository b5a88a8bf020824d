// kgen's torch shim: the small part of ATen / c10 / pybind11 / torch_npu that a MultiKernelBench python_bind_src uses,
// so that the binding compiles WITHOUT PyTorch and its EXEC_NPU_CMD(aclnnXxx, ...) runs operator Xxx of the op
// project on the emulator (kgen::op::exec_aclnn, src/op/aclnn_call.h, exported by kgen-oprun).
//
// Tensors are CPU tensors: a shared byte storage, a shape, strides and an offset (transpose / permute / expand /
// narrow are views; contiguous() copies). ATen COMPUTE functions (at::matmul, at::conv2d, at::softmax, ...) are
// deliberately absent: a binding that computes with PyTorch on the host is a fallback, not a kernel, and fails to
// compile here with the message "kgen-aten-fallback".
#pragma once
#include <algorithm>
#include <array>
#include <cmath>   // torch/extension.h brings the C math functions bindings call unqualified (ceil)
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "op/aclnn_call.h"

namespace c10 {
enum class ScalarType : int8_t {
  Byte = 0, Char = 1, Short = 2, Int = 3, Long = 4, Half = 5, Float = 6, Double = 7,
  ComplexHalf = 8, ComplexFloat = 9, ComplexDouble = 10, Bool = 11, BFloat16 = 15, Undefined = 100
};
constexpr ScalarType kByte = ScalarType::Byte, kChar = ScalarType::Char, kShort = ScalarType::Short,
                     kInt = ScalarType::Int, kLong = ScalarType::Long, kHalf = ScalarType::Half,
                     kFloat = ScalarType::Float, kDouble = ScalarType::Double, kBool = ScalarType::Bool,
                     kBFloat16 = ScalarType::BFloat16, kComplexFloat = ScalarType::ComplexFloat;
using std::optional;
using std::nullopt;
using string_view = std::string_view;
enum class DeviceType : int8_t { CPU = 0, CUDA = 1, PrivateUse1 = 20 };
constexpr DeviceType kCPU = DeviceType::CPU, kCUDA = DeviceType::CUDA, kPrivateUse1 = DeviceType::PrivateUse1;
struct Device {
  DeviceType t = DeviceType::CPU;
  int8_t idx = -1;
  Device() = default;
  Device(DeviceType type, int8_t index = -1) : t(type), idx(index) {}
  Device(const std::string&) : t(DeviceType::PrivateUse1), idx(0) {}
  DeviceType type() const { return t; }
  int8_t index() const { return idx; }
  bool is_cpu() const { return t == DeviceType::CPU; }
  bool operator==(const Device& o) const { return t == o.t; }
  bool operator!=(const Device& o) const { return t != o.t; }
};

inline size_t elementSize(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: case ScalarType::Char: case ScalarType::Bool: return 1;
    case ScalarType::Short: case ScalarType::Half: case ScalarType::BFloat16: return 2;
    case ScalarType::Int: case ScalarType::Float: return 4;
    case ScalarType::Long: case ScalarType::Double: case ScalarType::ComplexFloat: return 8;
    default: return 0;
  }
}
inline const char* toString(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return "Byte"; case ScalarType::Char: return "Char"; case ScalarType::Short: return "Short";
    case ScalarType::Int: return "Int"; case ScalarType::Long: return "Long"; case ScalarType::Half: return "Half";
    case ScalarType::Float: return "Float"; case ScalarType::Double: return "Double"; case ScalarType::Bool: return "Bool";
    case ScalarType::BFloat16: return "BFloat16"; case ScalarType::ComplexFloat: return "ComplexFloat";
    default: return "Undefined";
  }
}
struct MemoryFormat { enum V { Contiguous, Preserve, ChannelsLast }; };

// A non-owning view as in ATen (sizes(), strides(), a vector lvalue); built from a temporary (an initializer list,
// a vector rvalue, one int) it keeps its own copy, so that the common temporaries of bindings stay valid.
class IntArrayRef {
 public:
  IntArrayRef() = default;
  IntArrayRef(std::initializer_list<int64_t> l) { own(std::vector<int64_t>(l)); }
  IntArrayRef(const std::vector<int64_t>& v) : p_(v.data()), n_(v.size()) {}
  IntArrayRef(std::vector<int64_t>&& v) { own(std::move(v)); }
  IntArrayRef(const int64_t& one) { own(std::vector<int64_t>{one}); }
  IntArrayRef(const int64_t* p, size_t n) : p_(p), n_(n) {}
  template <size_t N> IntArrayRef(const std::array<int64_t, N>& a) : p_(a.data()), n_(N) {}
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const int64_t* data() const { return p_; }
  const int64_t* begin() const { return p_; }
  const int64_t* end() const { return p_ + n_; }
  int64_t operator[](size_t i) const { return p_[i]; }
  int64_t at(size_t i) const {
    if (i >= n_) throw std::out_of_range("IntArrayRef::at");
    return p_[i];
  }
  int64_t front() const { return p_[0]; }
  int64_t back() const { return p_[n_ - 1]; }
  std::vector<int64_t> vec() const { return std::vector<int64_t>(p_, p_ + n_); }
  operator std::vector<int64_t>() const { return vec(); }
  IntArrayRef slice(size_t start, size_t len) const { IntArrayRef r = *this; r.p_ += start; r.n_ = len; return r; }
  IntArrayRef slice(size_t start) const { return slice(start, n_ - start); }
  bool equals(const IntArrayRef& o) const { return n_ == o.n_ && std::equal(p_, p_ + n_, o.p_); }
  bool operator==(const IntArrayRef& o) const { return equals(o); }
  bool operator!=(const IntArrayRef& o) const { return !equals(o); }
 private:
  void own(std::vector<int64_t> v) {
    own_ = std::make_shared<std::vector<int64_t>>(std::move(v));
    p_ = own_->data();
    n_ = own_->size();
  }
  std::shared_ptr<std::vector<int64_t>> own_;
  const int64_t* p_ = nullptr;
  size_t n_ = 0;
};
using ArrayRefInt = IntArrayRef;
// A non-owning view of T values (ATen's c10::ArrayRef<T>; IntArrayRef above is the int64_t one, which also owns a
// temporary). at::ArrayRef<at::Scalar> is how a binding passes an aclScalarList to EXEC_NPU_CMD.
template <class T>
class ArrayRef {
 public:
  ArrayRef() = default;
  ArrayRef(const std::vector<T>& v) : p_(v.data()), n_(v.size()) {}
  ArrayRef(const T* p, size_t n) : p_(p), n_(n) {}
  ArrayRef(const T& one) : p_(&one), n_(1) {}
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const T* data() const { return p_; }
  const T* begin() const { return p_; }
  const T* end() const { return p_ + n_; }
  const T& operator[](size_t i) const { return p_[i]; }
  std::vector<T> vec() const { return std::vector<T>(p_, p_ + n_); }

 private:
  const T* p_ = nullptr;
  size_t n_ = 0;
};
}  // namespace c10

namespace at { class Tensor; }
namespace kgen::shim {
[[noreturn]] inline void fail(const std::string& m) { throw std::runtime_error(m); }
template <class... A> inline constexpr bool dependent_false = false;
// An error of exec_aclnn, already formatted as kgen's diagnostics.
struct ExecError : std::runtime_error { using std::runtime_error::runtime_error; };
}  // namespace kgen::shim

namespace c10 {
class Scalar {
 public:
  Scalar() = default;
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) : is_int_(true), i_(static_cast<int64_t>(v)), d_(static_cast<double>(v)) {}
  template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Scalar(T v) : d_(static_cast<double>(v)) {}
  Scalar(bool v) : is_int_(true), is_bool_(true), i_(v), d_(v) {}
  double toDouble() const { return d_; }
  float toFloat() const { return static_cast<float>(d_); }
  int64_t toLong() const { return is_int_ ? i_ : static_cast<int64_t>(d_); }
  int toInt() const { return static_cast<int>(toLong()); }
  bool toBool() const { return is_int_ ? i_ != 0 : d_ != 0; }
  bool isIntegral(bool = false) const { return is_int_ && !is_bool_; }
  bool isFloatingPoint() const { return !is_int_; }
  bool isBoolean() const { return is_bool_; }
  template <class T> T to() const { return static_cast<T>(is_int_ ? static_cast<double>(i_) : d_); }
 private:
  bool is_int_ = false, is_bool_ = false;
  int64_t i_ = 0;
  double d_ = 0;
};
}  // namespace c10

namespace caffe2 {
struct TypeMeta {
  c10::ScalarType t = c10::ScalarType::Float;
  TypeMeta() = default;
  TypeMeta(c10::ScalarType s) : t(s) {}
  operator c10::ScalarType() const { return t; }
  c10::ScalarType toScalarType() const { return t; }
  size_t itemsize() const { return c10::elementSize(t); }
  const char* name() const { return c10::toString(t); }
  bool operator==(const TypeMeta& o) const { return t == o.t; }
  bool operator!=(const TypeMeta& o) const { return t != o.t; }
  bool operator==(c10::ScalarType o) const { return t == o; }
  bool operator!=(c10::ScalarType o) const { return t != o; }
};
}  // namespace caffe2

namespace c10 {
class TensorOptions {
 public:
  TensorOptions() = default;
  TensorOptions(ScalarType t) : dt_(t) {}
  TensorOptions(caffe2::TypeMeta t) : dt_(t.t) {}
  TensorOptions(Device d) : dev_(d) {}
  TensorOptions(DeviceType d) : dev_(d) {}
  TensorOptions dtype(ScalarType t) const { TensorOptions o = *this; o.dt_ = t; return o; }
  TensorOptions dtype(caffe2::TypeMeta t) const { return dtype(t.t); }
  template <class T> TensorOptions dtype() const;
  caffe2::TypeMeta dtype() const { return caffe2::TypeMeta(dt_); }
  TensorOptions device(Device d) const { TensorOptions o = *this; o.dev_ = d; return o; }
  TensorOptions device(DeviceType d, int idx = -1) const { return device(Device(d, static_cast<int8_t>(idx))); }
  Device device() const { return dev_; }
  TensorOptions requires_grad(bool = true) const { return *this; }
  TensorOptions memory_format(MemoryFormat::V) const { return *this; }
  TensorOptions layout(int) const { return *this; }
  ScalarType scalar_type() const { return dt_; }
 private:
  ScalarType dt_ = ScalarType::Float;
  Device dev_;
};
inline TensorOptions dtype(ScalarType t) { return TensorOptions(t); }
inline TensorOptions device(Device d) { return TensorOptions(d); }
}  // namespace c10

namespace at {
using c10::ScalarType;
using c10::IntArrayRef;
using c10::ArrayRef;
using c10::Scalar;
using c10::TensorOptions;
using c10::Device;
using c10::DeviceType;
using c10::MemoryFormat;
using c10::kByte; using c10::kChar; using c10::kShort; using c10::kInt; using c10::kLong; using c10::kHalf;
using c10::kFloat; using c10::kDouble; using c10::kBool; using c10::kBFloat16; using c10::kComplexFloat; using c10::kCPU; using c10::kPrivateUse1;
using c10::elementSize;
using c10::toString;
using c10::optional;
using c10::nullopt;
using DimVector = std::vector<int64_t>;
using SymIntArrayRef = IntArrayRef;
inline TensorOptions dtype(ScalarType t) { return TensorOptions(t); }

namespace detail {
inline float half_to_float(uint16_t h) {
  uint32_t s = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 1023, f;
  if (e == 0) {
    if (m == 0) f = s << 31;
    else { e = 1; while (!(m & 1024)) { m <<= 1; --e; } m &= 1023; f = (s << 31) | ((e + 112) << 23) | (m << 13); }
  } else if (e == 31) f = (s << 31) | 0x7f800000u | (m << 13);
  else f = (s << 31) | ((e + 112) << 23) | (m << 13);
  float r; std::memcpy(&r, &f, 4); return r;
}
inline uint16_t float_to_half(float v) {
  uint32_t x; std::memcpy(&x, &v, 4);
  uint32_t s = (x >> 16) & 0x8000; int32_t e = static_cast<int32_t>((x >> 23) & 255) - 112; uint32_t m = x & 0x7fffff;
  if (((x >> 23) & 255) == 255) return static_cast<uint16_t>(s | 0x7c00 | (m ? 0x200 : 0));
  if (e >= 31) return static_cast<uint16_t>(s | 0x7c00);
  if (e <= 0) {
    if (e < -10) return static_cast<uint16_t>(s);
    m |= 0x800000; uint32_t sh = static_cast<uint32_t>(14 - e);
    uint32_t r = m >> sh; uint32_t rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
    if (rem > half || (rem == half && (r & 1))) ++r;
    return static_cast<uint16_t>(s | r);
  }
  uint32_t r = (static_cast<uint32_t>(e) << 10) | (m >> 13); uint32_t rem = m & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (r & 1))) ++r;
  return static_cast<uint16_t>(s | r);
}
inline double load(const uint8_t* p, ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return *p;
    case ScalarType::Char: return *reinterpret_cast<const int8_t*>(p);
    case ScalarType::Bool: return *p != 0;
    case ScalarType::Short: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case ScalarType::Int: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case ScalarType::Long: { int64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
    case ScalarType::Float: { float v; std::memcpy(&v, p, 4); return v; }
    case ScalarType::Double: { double v; std::memcpy(&v, p, 8); return v; }
    case ScalarType::Half: { uint16_t v; std::memcpy(&v, p, 2); return half_to_float(v); }
    case ScalarType::BFloat16: { uint16_t v; std::memcpy(&v, p, 2); uint32_t f = uint32_t(v) << 16; float r; std::memcpy(&r, &f, 4); return r; }
    default: kgen::shim::fail("kgen torch shim: unsupported dtype");
  }
}
inline void store(uint8_t* p, ScalarType t, double d) {
  switch (t) {
    case ScalarType::Byte: *p = static_cast<uint8_t>(d); break;
    case ScalarType::Char: *reinterpret_cast<int8_t*>(p) = static_cast<int8_t>(d); break;
    case ScalarType::Bool: *p = d != 0; break;
    case ScalarType::Short: { int16_t v = static_cast<int16_t>(d); std::memcpy(p, &v, 2); break; }
    case ScalarType::Int: { int32_t v = static_cast<int32_t>(d); std::memcpy(p, &v, 4); break; }
    case ScalarType::Long: { int64_t v = static_cast<int64_t>(d); std::memcpy(p, &v, 8); break; }
    case ScalarType::Float: { float v = static_cast<float>(d); std::memcpy(p, &v, 4); break; }
    case ScalarType::Double: std::memcpy(p, &d, 8); break;
    case ScalarType::Half: { uint16_t v = float_to_half(static_cast<float>(d)); std::memcpy(p, &v, 2); break; }
    case ScalarType::BFloat16: {
      float f = static_cast<float>(d); uint32_t x; std::memcpy(&x, &f, 4);
      x += 0x7fff + ((x >> 16) & 1); uint16_t v = static_cast<uint16_t>(x >> 16); std::memcpy(p, &v, 2); break;
    }
    default: kgen::shim::fail("kgen torch shim: unsupported dtype");
  }
}
template <class T> constexpr ScalarType scalar_type_of() {
  if constexpr (std::is_same_v<T, float>) return ScalarType::Float;
  else if constexpr (std::is_same_v<T, double>) return ScalarType::Double;
  else if constexpr (std::is_same_v<T, int32_t>) return ScalarType::Int;
  else if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, long long>) return ScalarType::Long;
  else if constexpr (std::is_same_v<T, int16_t>) return ScalarType::Short;
  else if constexpr (std::is_same_v<T, int8_t>) return ScalarType::Char;
  else if constexpr (std::is_same_v<T, uint8_t>) return ScalarType::Byte;
  else if constexpr (std::is_same_v<T, bool>) return ScalarType::Bool;
  else return ScalarType::Undefined;
}
}  // namespace detail

struct Storage {
  std::vector<uint8_t> own;
  uint8_t* ext = nullptr;
  size_t ext_bytes = 0;
  uint8_t* data() { return ext ? ext : own.data(); }
  size_t size() const { return ext ? ext_bytes : own.size(); }
};

// What Tensor::accessor<T, N>() returns: element access by index over the tensor's sizes and strides (ATen's
// TensorAccessor); a[i] of an N-d accessor is an (N-1)-d one, of a 1-d accessor the element.
template <class T, size_t N>
class TensorAccessor {
 public:
  TensorAccessor(T* data, const int64_t* sizes, const int64_t* strides) : data_(data), sizes_(sizes), strides_(strides) {}
  decltype(auto) operator[](int64_t i) const {
    if constexpr (N == 1) return data_[strides_[0] * i];
    else return TensorAccessor<T, N - 1>(data_ + strides_[0] * i, sizes_ + 1, strides_ + 1);
  }
  int64_t size(int64_t d) const { return sizes_[d]; }
  int64_t stride(int64_t d) const { return strides_[d]; }
  IntArrayRef sizes() const { return IntArrayRef(sizes_, N); }
  IntArrayRef strides() const { return IntArrayRef(strides_, N); }
  T* data() const { return data_; }

 private:
  T* data_;
  const int64_t* sizes_;
  const int64_t* strides_;
};

class Tensor {
 public:
  Tensor() = default;
  // A fresh contiguous tensor (zero-filled).
  Tensor(std::vector<int64_t> shape, ScalarType t) : shape_(std::move(shape)), dt_(t) {
    for (int64_t s : shape_) if (s < 0) kgen::shim::fail("negative dimension in tensor shape");
    st_ = std::make_shared<Storage>();
    st_->own.assign(static_cast<size_t>(numel()) * elementSize(t), 0);
    strides_ = contiguous_strides(shape_);
  }
  // Every byte of the tensor's own storage set to b (the factories' garbage, see empty()).
  void fill_bytes(uint8_t b) {
    if (st_ && !st_->ext) std::fill(st_->own.begin(), st_->own.end(), b);
  }
  // A view of memory somebody else owns (the runner's argument buffers).
  static Tensor wrap(void* data, size_t bytes, std::vector<int64_t> shape, ScalarType t) {
    Tensor r;
    r.shape_ = std::move(shape); r.dt_ = t; r.strides_ = contiguous_strides(r.shape_);
    r.st_ = std::make_shared<Storage>(); r.st_->ext = static_cast<uint8_t*>(data); r.st_->ext_bytes = bytes;
    return r;
  }
  bool defined() const { return st_ != nullptr; }
  int64_t dim() const { return static_cast<int64_t>(shape_.size()); }
  int64_t ndimension() const { return dim(); }
  int64_t size(int64_t d) const { return shape_.at(static_cast<size_t>(wrap_dim(d, dim()))); }
  int64_t stride(int64_t d) const { return strides_.at(static_cast<size_t>(wrap_dim(d, dim()))); }
  IntArrayRef sizes() const { return IntArrayRef(shape_); }
  IntArrayRef strides() const { return IntArrayRef(strides_); }
  int64_t numel() const { int64_t n = 1; for (int64_t s : shape_) n *= s; return n; }
  size_t nbytes() const { return static_cast<size_t>(numel()) * element_size(); }
  size_t element_size() const { return elementSize(dt_); }
  size_t itemsize() const { return element_size(); }
  ScalarType scalar_type() const { return dt_; }
  caffe2::TypeMeta dtype() const { return caffe2::TypeMeta(dt_); }
  TensorOptions options() const { return TensorOptions(dt_).device(Device(DeviceType::PrivateUse1, 0)); }
  Device device() const { return Device(DeviceType::PrivateUse1, 0); }
  bool is_cpu() const { return false; }
  bool is_cuda() const { return false; }
  bool requires_grad() const { return false; }
  int64_t storage_offset() const { return offset_; }
  bool is_contiguous(MemoryFormat::V = MemoryFormat::Contiguous) const {
    int64_t expect = 1;
    for (int64_t i = dim() - 1; i >= 0; --i) {
      if (shape_[i] != 1 && strides_[i] != expect) return false;
      expect *= shape_[i];
    }
    return true;
  }
  Tensor contiguous(MemoryFormat::V = MemoryFormat::Contiguous) const {
    if (is_contiguous()) return *this;
    Tensor r(shape_, dt_);
    copy_strided(r);
    return r;
  }
  Tensor clone(MemoryFormat::V = MemoryFormat::Contiguous) const { Tensor r(shape_, dt_); copy_strided(r); return r; }
  Tensor& copy_(const Tensor& src, bool = false) {
    Tensor s = src.expand(sizes()).contiguous();
    if (s.dt_ == dt_ && is_contiguous()) { std::memcpy(raw(), s.raw(), nbytes()); return *this; }
    std::vector<int64_t> idx(shape_.size(), 0);
    const uint8_t* sp = static_cast<const uint8_t*>(s.raw());
    for (int64_t n = 0, N = numel(); n < N; ++n) {
      int64_t off = offset_;
      for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * strides_[d];
      detail::store(st_->data() + off * element_size(), dt_, detail::load(sp + n * s.element_size(), s.dt_));
      for (int64_t d = dim() - 1; d >= 0; --d) { if (++idx[d] < shape_[d]) break; idx[d] = 0; }
    }
    return *this;
  }
  void* data_ptr() const { return defined() ? st_->data() + offset_ * element_size() : nullptr; }
  template <class T> T* data_ptr() const {
    constexpr ScalarType want = detail::scalar_type_of<T>();
    if (want != ScalarType::Undefined && want != dt_ &&
        !(elementSize(dt_) == sizeof(T) && (dt_ == ScalarType::Half || dt_ == ScalarType::BFloat16)))
      kgen::shim::fail(std::string("expected scalar type ") + toString(want) + " but found " + toString(dt_));
    return static_cast<T*>(data_ptr());
  }
  // The tensor must have N dims and element type T, as ATen checks; valid while the tensor lives.
  template <class T, size_t N> TensorAccessor<T, N> accessor() const& {
    static_assert(N > 0, "accessor is used for indexing tensor, for scalars use *data_ptr<T>()");
    if (dim() != static_cast<int64_t>(N))
      kgen::shim::fail("TensorAccessor expected " + std::to_string(N) + " dims but tensor has " + std::to_string(dim()));
    return TensorAccessor<T, N>(data_ptr<T>(), shape_.data(), strides_.data());
  }
  template <class T> T* mutable_data_ptr() const { return data_ptr<T>(); }
  template <class T> const T* const_data_ptr() const { return data_ptr<T>(); }
  void* raw() const { return data_ptr(); }
  // Views.
  Tensor view(IntArrayRef s) const {
    if (!is_contiguous()) kgen::shim::fail("view size is not compatible with input tensor's size and stride; use .reshape(...) instead");
    Tensor r = *this; r.shape_ = infer_size(s, numel()); r.strides_ = contiguous_strides(r.shape_); return r;
  }
  Tensor reshape(IntArrayRef s) const { return contiguous().view(s); }
  Tensor flatten(int64_t start = 0, int64_t end = -1) const {
    if (dim() == 0) return reshape({1});
    start = wrap_dim(start, dim()); end = wrap_dim(end, dim());
    std::vector<int64_t> s(shape_.begin(), shape_.begin() + start);
    int64_t m = 1; for (int64_t i = start; i <= end; ++i) m *= shape_[i];
    s.push_back(m); s.insert(s.end(), shape_.begin() + end + 1, shape_.end());
    return reshape(s);
  }
  Tensor view_as(const Tensor& o) const { return view(o.sizes()); }
  Tensor reshape_as(const Tensor& o) const { return reshape(o.sizes()); }
  Tensor transpose(int64_t a, int64_t b) const {
    Tensor r = *this; a = wrap_dim(a, dim()); b = wrap_dim(b, dim());
    std::swap(r.shape_[a], r.shape_[b]); std::swap(r.strides_[a], r.strides_[b]); return r;
  }
  Tensor t() const { return dim() < 2 ? *this : transpose(0, 1); }
  Tensor permute(IntArrayRef p) const {
    if (static_cast<int64_t>(p.size()) != dim()) kgen::shim::fail("permute: number of dims don't match");
    Tensor r = *this;
    for (size_t i = 0; i < p.size(); ++i) { int64_t d = wrap_dim(p[i], dim()); r.shape_[i] = shape_[d]; r.strides_[i] = strides_[d]; }
    return r;
  }
  Tensor unsqueeze(int64_t d) const {
    d = wrap_dim(d, dim() + 1); Tensor r = *this;
    int64_t st = d < dim() ? strides_[d] * shape_[d] : 1;
    r.shape_.insert(r.shape_.begin() + d, 1); r.strides_.insert(r.strides_.begin() + d, st); return r;
  }
  Tensor squeeze() const {
    Tensor r = *this; r.shape_.clear(); r.strides_.clear();
    for (int64_t i = 0; i < dim(); ++i) if (shape_[i] != 1) { r.shape_.push_back(shape_[i]); r.strides_.push_back(strides_[i]); }
    return r;
  }
  Tensor squeeze(int64_t d) const {
    d = wrap_dim(d, dim()); if (shape_[d] != 1) return *this;
    Tensor r = *this; r.shape_.erase(r.shape_.begin() + d); r.strides_.erase(r.strides_.begin() + d); return r;
  }
  Tensor narrow(int64_t d, int64_t start, int64_t len) const {
    d = wrap_dim(d, dim()); if (start < 0) start += shape_[d];
    if (start < 0 || len < 0 || start + len > shape_[d]) kgen::shim::fail("narrow: start/length out of range");
    Tensor r = *this; r.offset_ += start * strides_[d]; r.shape_[d] = len; return r;
  }
  Tensor slice(int64_t d = 0, std::optional<int64_t> start = std::nullopt, std::optional<int64_t> end = std::nullopt, int64_t step = 1) const {
    d = wrap_dim(d, dim()); int64_t n = shape_[d];
    int64_t s = start.value_or(0), e = end.value_or(n);
    if (s < 0) s += n; if (e < 0) e += n; s = std::max<int64_t>(0, std::min(s, n)); e = std::max<int64_t>(s, std::min(e, n));
    Tensor r = *this; r.offset_ += s * strides_[d]; r.shape_[d] = (e - s + step - 1) / step; r.strides_[d] *= step; return r;
  }
  Tensor select(int64_t d, int64_t i) const { d = wrap_dim(d, dim()); if (i < 0) i += shape_[d]; return narrow(d, i, 1).squeeze(d); }
  Tensor operator[](int64_t i) const { return select(0, i); }
  Tensor expand(IntArrayRef s, bool = false) const {
    int64_t nd = static_cast<int64_t>(s.size());
    if (nd < dim()) kgen::shim::fail("expand: the number of sizes provided must be >= the number of dimensions");
    Tensor r = *this; r.shape_.assign(nd, 1); r.strides_.assign(nd, 0);
    for (int64_t i = nd - 1, j = dim() - 1; i >= 0; --i, --j) {
      int64_t cur = j >= 0 ? shape_[j] : 1, want = s[i] == -1 ? cur : s[i];
      if (j >= 0 && cur == want) { r.shape_[i] = cur; r.strides_[i] = strides_[j]; }
      else if (cur == 1) { r.shape_[i] = want; r.strides_[i] = 0; }
      else kgen::shim::fail("expand: the expanded size must match the existing size at non-singleton dimension");
    }
    return r;
  }
  Tensor expand_as(const Tensor& o) const { return expand(o.sizes()); }
  // Conversions: dtype casts copy, devices are all the same here.
  Tensor to(ScalarType t, bool = false, bool = false) const {
    if (t == dt_) return *this;
    Tensor r(shape_, t); r.copy_(*this); return r;
  }
  Tensor to(caffe2::TypeMeta t, bool a = false, bool b = false) const { return to(t.t, a, b); }
  Tensor to(const TensorOptions& o, bool = false, bool = false) const { return to(o.scalar_type()); }
  Tensor to(Device, ScalarType t, bool = false, bool = false) const { return to(t); }
  Tensor to(Device, bool = false, bool = false) const { return *this; }
  Tensor to(DeviceType, bool = false, bool = false) const { return *this; }
  Tensor to(const std::string&) const { return *this; }
  Tensor to(const Tensor& o, bool = false, bool = false) const { return to(o.dt_); }
  Tensor type_as(const Tensor& o) const { return to(o.dt_); }
  Tensor cpu() const { return *this; }
  Tensor npu() const { return *this; }
  Tensor cuda() const { return *this; }
  Tensor detach() const { return *this; }
  Tensor& zero_() { return fill_(0.0); }
  Tensor& fill_(const Scalar& v) {
    std::vector<int64_t> idx(shape_.size(), 0);
    for (int64_t n = 0, N = numel(); n < N; ++n) {
      int64_t off = offset_;
      for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * strides_[d];
      detail::store(st_->data() + off * element_size(), dt_, v.toDouble());
      for (int64_t d = dim() - 1; d >= 0; --d) { if (++idx[d] < shape_[d]) break; idx[d] = 0; }
    }
    return *this;
  }
  Scalar item() const {
    if (numel() != 1) kgen::shim::fail("a Tensor with more than one element cannot be converted to Scalar");
    double v = detail::load(static_cast<const uint8_t*>(contiguous().raw()), dt_);
    if (dt_ == ScalarType::Float || dt_ == ScalarType::Double || dt_ == ScalarType::Half || dt_ == ScalarType::BFloat16) return Scalar(v);
    return Scalar(static_cast<int64_t>(v));
  }
  template <class T> T item() const { return item().to<T>(); }
  // The sum of every element into a 0-d tensor, as torch's Tensor::sum(): integral and bool tensors sum into int64.
  Tensor sum() const {
    const bool real = dt_ == ScalarType::Float || dt_ == ScalarType::Double || dt_ == ScalarType::Half ||
                      dt_ == ScalarType::BFloat16;
    const Tensor c = contiguous();
    const uint8_t* p = static_cast<const uint8_t*>(c.raw());
    double acc = 0;
    int64_t iacc = 0;
    for (int64_t n = 0, N = numel(); n < N; ++n) {
      const double v = detail::load(p + n * element_size(), dt_);
      if (real) acc += v;
      else iacc += static_cast<int64_t>(v);
    }
    Tensor r(std::vector<int64_t>{}, real ? dt_ : ScalarType::Long);
    detail::store(static_cast<uint8_t*>(r.raw()), r.dt_, real ? acc : static_cast<double>(iacc));
    return r;
  }
  // The tensor's storage, for kgen (EXEC_NPU_CMD).
  const std::shared_ptr<Storage>& kgen_storage() const { return st_; }

  static std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& s) {
    std::vector<int64_t> st(s.size(), 1);
    for (int64_t i = static_cast<int64_t>(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * std::max<int64_t>(s[i + 1], 1);
    return st;
  }
  static int64_t wrap_dim(int64_t d, int64_t n) {
    int64_t m = n == 0 ? 1 : n;
    if (d < -m || d >= m)
      kgen::shim::fail("Dimension out of range (expected to be in range of [" + std::to_string(-m) + ", " +
                       std::to_string(m - 1) + "], but got " + std::to_string(d) + ")");
    return d < 0 ? d + m : d;
  }
  static std::vector<int64_t> infer_size(IntArrayRef s, int64_t numel) {
    std::vector<int64_t> r = s.vec(); int64_t known = 1, neg = -1;
    for (size_t i = 0; i < r.size(); ++i) {
      if (r[i] == -1) { if (neg >= 0) kgen::shim::fail("only one dimension can be inferred"); neg = static_cast<int64_t>(i); }
      else known *= r[i];
    }
    if (neg >= 0) { if (known == 0 || numel % known) kgen::shim::fail("shape is invalid for input of this size"); r[neg] = numel / known; }
    else if (known != numel) kgen::shim::fail("shape '[...]' is invalid for input of size " + std::to_string(numel));
    return r;
  }

 private:
  void copy_strided(Tensor& dst) const {
    size_t es = element_size();
    std::vector<int64_t> idx(shape_.size(), 0);
    uint8_t* out = static_cast<uint8_t*>(dst.raw());
    for (int64_t n = 0, N = numel(); n < N; ++n) {
      int64_t off = offset_;
      for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * strides_[d];
      std::memcpy(out + n * es, st_->data() + off * es, es);
      for (int64_t d = dim() - 1; d >= 0; --d) { if (++idx[d] < shape_[d]) break; idx[d] = 0; }
    }
  }
  std::shared_ptr<Storage> st_;
  std::vector<int64_t> shape_, strides_;
  int64_t offset_ = 0;
  ScalarType dt_ = ScalarType::Float;
};
using TensorList = std::vector<Tensor>;

// Factories (allocation and fills only: these are what a binding needs to create its outputs). An empty tensor's
// device memory holds whatever was there: here the 0xFF bytes by which the op runner finds the elements a kernel
// never wrote; a zeroed one holds zeros, which a kernel may add to (NPUKernelBench's CoalesceSparse: atomic adds
// into `newValues.zero_()`).
inline Tensor garbage_filled(Tensor t) {
  t.fill_bytes(0xFF);
  return t;
}
inline Tensor empty(IntArrayRef size, const TensorOptions& o = {}, std::optional<MemoryFormat::V> = std::nullopt) {
  return garbage_filled(Tensor(size.vec(), o.scalar_type()));
}
inline Tensor empty(IntArrayRef size, ScalarType t) { return garbage_filled(Tensor(size.vec(), t)); }
inline Tensor empty_like(const Tensor& t, const TensorOptions& o, std::optional<MemoryFormat::V> = std::nullopt) {
  return garbage_filled(Tensor(t.sizes().vec(), o.scalar_type()));
}
inline Tensor empty_like(const Tensor& t) { return garbage_filled(Tensor(t.sizes().vec(), t.scalar_type())); }
inline Tensor empty_like(const Tensor& t, std::optional<MemoryFormat::V>) { return empty_like(t); }
inline Tensor zeros(IntArrayRef size, const TensorOptions& o = {}) { return Tensor(size.vec(), o.scalar_type()); }
inline Tensor zeros_like(const Tensor& t) { return Tensor(t.sizes().vec(), t.scalar_type()); }
inline Tensor zeros_like(const Tensor& t, const TensorOptions& o) { return Tensor(t.sizes().vec(), o.scalar_type()); }
inline Tensor full(IntArrayRef size, const Scalar& v, const TensorOptions& o = {}) {
  Tensor r(size.vec(), o.scalar_type()); r.fill_(v); return r;
}
inline Tensor full_like(const Tensor& t, const Scalar& v) { Tensor r = empty_like(t); r.fill_(v); return r; }
inline Tensor full_like(const Tensor& t, const Scalar& v, const TensorOptions& o) { Tensor r = empty_like(t, o); r.fill_(v); return r; }
inline Tensor ones(IntArrayRef size, const TensorOptions& o = {}) { return full(size, 1.0, o); }
inline Tensor ones_like(const Tensor& t) { return full_like(t, 1.0); }
inline Tensor ones_like(const Tensor& t, const TensorOptions& o) { return full_like(t, 1.0, o); }
inline Tensor reshape(const Tensor& t, IntArrayRef s) { return t.reshape(s); }
inline Tensor flatten(const Tensor& t, int64_t a = 0, int64_t b = -1) { return t.flatten(a, b); }
inline Tensor transpose(const Tensor& t, int64_t a, int64_t b) { return t.transpose(a, b); }
inline Tensor permute(const Tensor& t, IntArrayRef p) { return t.permute(p); }
inline Tensor unsqueeze(const Tensor& t, int64_t d) { return t.unsqueeze(d); }
inline Tensor squeeze(const Tensor& t, int64_t d) { return t.squeeze(d); }
inline Tensor narrow(const Tensor& t, int64_t d, int64_t s, int64_t l) { return t.narrow(d, s, l); }

// ATen compute (what a kernel should do) is not available: using it is a PyTorch fallback.
#define KGEN_ATEN_FALLBACK(name)                                                                               \
  template <class... A> Tensor name(A&&...) {                                                                  \
    static_assert(kgen::shim::dependent_false<A...>,                                                           \
                  "kgen-aten-fallback: python_bind_src calls at::" #name ", a PyTorch computation on the host; "  \
                  "a MultiKernelBench submission must compute in its AscendC kernel (EXEC_NPU_CMD), so kgen's "   \
                  "torch shim has no ATen compute functions");                                                 \
    return Tensor();                                                                                           \
  }
KGEN_ATEN_FALLBACK(matmul) KGEN_ATEN_FALLBACK(mm) KGEN_ATEN_FALLBACK(bmm) KGEN_ATEN_FALLBACK(addmm)
KGEN_ATEN_FALLBACK(linear) KGEN_ATEN_FALLBACK(softmax) KGEN_ATEN_FALLBACK(log_softmax) KGEN_ATEN_FALLBACK(conv1d)
KGEN_ATEN_FALLBACK(conv2d) KGEN_ATEN_FALLBACK(conv3d) KGEN_ATEN_FALLBACK(convolution) KGEN_ATEN_FALLBACK(conv_transpose2d)
KGEN_ATEN_FALLBACK(conv_transpose3d) KGEN_ATEN_FALLBACK(relu) KGEN_ATEN_FALLBACK(sigmoid) KGEN_ATEN_FALLBACK(tanh)
KGEN_ATEN_FALLBACK(gelu) KGEN_ATEN_FALLBACK(leaky_relu) KGEN_ATEN_FALLBACK(add) KGEN_ATEN_FALLBACK(sub)
KGEN_ATEN_FALLBACK(mul) KGEN_ATEN_FALLBACK(div) KGEN_ATEN_FALLBACK(clamp) KGEN_ATEN_FALLBACK(clamp_min)
KGEN_ATEN_FALLBACK(clamp_max) KGEN_ATEN_FALLBACK(exp) KGEN_ATEN_FALLBACK(log) KGEN_ATEN_FALLBACK(sqrt)
KGEN_ATEN_FALLBACK(layer_norm) KGEN_ATEN_FALLBACK(batch_norm) KGEN_ATEN_FALLBACK(group_norm) KGEN_ATEN_FALLBACK(instance_norm)
KGEN_ATEN_FALLBACK(logsumexp) KGEN_ATEN_FALLBACK(amax) KGEN_ATEN_FALLBACK(amin) KGEN_ATEN_FALLBACK(sum)
KGEN_ATEN_FALLBACK(mean) KGEN_ATEN_FALLBACK(max) KGEN_ATEN_FALLBACK(min) KGEN_ATEN_FALLBACK(argmax)
KGEN_ATEN_FALLBACK(argmin) KGEN_ATEN_FALLBACK(max_pool1d) KGEN_ATEN_FALLBACK(max_pool2d) KGEN_ATEN_FALLBACK(max_pool3d)
KGEN_ATEN_FALLBACK(avg_pool1d) KGEN_ATEN_FALLBACK(avg_pool2d) KGEN_ATEN_FALLBACK(avg_pool3d)
KGEN_ATEN_FALLBACK(adaptive_avg_pool2d) KGEN_ATEN_FALLBACK(adaptive_avg_pool3d) KGEN_ATEN_FALLBACK(upsample_bilinear2d)
KGEN_ATEN_FALLBACK(cat) KGEN_ATEN_FALLBACK(stack) KGEN_ATEN_FALLBACK(where) KGEN_ATEN_FALLBACK(pow)
KGEN_ATEN_FALLBACK(abs) KGEN_ATEN_FALLBACK(neg) KGEN_ATEN_FALLBACK(hardtanh) KGEN_ATEN_FALLBACK(dropout)
KGEN_ATEN_FALLBACK(einsum) KGEN_ATEN_FALLBACK(cumsum) KGEN_ATEN_FALLBACK(prod) KGEN_ATEN_FALLBACK(norm)
KGEN_ATEN_FALLBACK(mse_loss) KGEN_ATEN_FALLBACK(cross_entropy) KGEN_ATEN_FALLBACK(scaled_dot_product_attention)
// Tensor arithmetic is PyTorch compute as well.
#define KGEN_ATEN_FALLBACK_OP(op, text)                                                                         \
  template <class A, class B,                                                                                 \
            std::enable_if_t<std::is_same_v<std::decay_t<A>, Tensor> || std::is_same_v<std::decay_t<B>, Tensor>, \
                             int> = 0>                                                                        \
  Tensor operator op(const A&, const B&) {                                                                    \
    static_assert(kgen::shim::dependent_false<A, B>,                                                          \
                  "kgen-aten-fallback: python_bind_src calls at::" text ", a PyTorch computation on the host");  \
    return Tensor();                                                                                          \
  }
KGEN_ATEN_FALLBACK_OP(+, "add (tensor operator+)") KGEN_ATEN_FALLBACK_OP(-, "sub (tensor operator-)")
KGEN_ATEN_FALLBACK_OP(*, "mul (tensor operator*)") KGEN_ATEN_FALLBACK_OP(/, "div (tensor operator/)")
#undef KGEN_ATEN_FALLBACK_OP
// Broadcasting is layout (expanded views), not compute.
inline std::vector<int64_t> broadcast_shape(const std::vector<Tensor>& ts) {
  size_t nd = 0;
  for (auto& t : ts) nd = std::max(nd, static_cast<size_t>(t.dim()));
  std::vector<int64_t> out(nd, 1);
  for (auto& t : ts)
    for (size_t i = 0; i < static_cast<size_t>(t.dim()); ++i) {
      int64_t s = t.size(static_cast<int64_t>(i)), &o = out[nd - t.dim() + i];
      if (s == o || s == 1) continue;
      if (o != 1) kgen::shim::fail("The size of tensor a must match the size of tensor b at a non-singleton dimension");
      o = s;
    }
  return out;
}
inline std::vector<Tensor> broadcast_tensors(const std::vector<Tensor>& ts) {
  std::vector<int64_t> shape = broadcast_shape(ts);
  std::vector<Tensor> r;
  for (auto& t : ts) r.push_back(t.expand(shape));
  return r;
}
inline std::vector<Tensor> broadcast_tensors(std::initializer_list<Tensor> ts) { return broadcast_tensors(std::vector<Tensor>(ts)); }
inline Tensor broadcast_to(const Tensor& t, IntArrayRef s) { return t.expand(s); }
inline std::vector<int64_t> infer_size(IntArrayRef a, IntArrayRef b) {
  return broadcast_shape({Tensor(a.vec(), ScalarType::Byte), Tensor(b.vec(), ScalarType::Byte)});
}
#undef KGEN_ATEN_FALLBACK
}  // namespace at

namespace c10 { using at::Tensor; }
namespace torch {
using namespace at;
using at::Tensor;
using Dtype = at::ScalarType;
// The C++ frontend's sized dtype names (torch/csrc/api/include/torch/types.h).
constexpr auto kUInt8 = at::kByte, kInt8 = at::kChar, kInt16 = at::kShort, kInt32 = at::kInt, kInt64 = at::kLong,
               kFloat16 = at::kHalf, kFloat32 = at::kFloat, kFloat64 = at::kDouble;
}  // namespace torch

// TORCH_CHECK(cond, message pieces...): throws with the message, as PyTorch does (a Python RuntimeError there).
namespace kgen::shim {
inline void append(std::string&) {}
template <class T, class... R> void append(std::string& s, const T& v, const R&... r) {
  if constexpr (std::is_convertible_v<T, std::string>) s += std::string(v);
  else if constexpr (std::is_same_v<T, c10::ScalarType>) s += c10::toString(v);
  else if constexpr (std::is_same_v<T, caffe2::TypeMeta>) s += v.name();
  else if constexpr (std::is_same_v<T, c10::IntArrayRef> || std::is_same_v<T, std::vector<int64_t>>) {
    s += "["; bool first = true; for (int64_t x : v) { if (!first) s += ", "; first = false; s += std::to_string(x); } s += "]";
  } else if constexpr (std::is_same_v<T, bool>) s += v ? "true" : "false";
  else if constexpr (std::is_arithmetic_v<T>) s += std::to_string(v);
  else s += "<value>";
  append(s, r...);
}
template <class... A> [[noreturn]] void check_failed(const char* cond, const char* file, int line, const A&... a) {
  std::string s;
  append(s, a...);
  if (s.empty()) s = std::string("Expected ") + cond + " to be true, but got false.";
  throw std::runtime_error(s + " (TORCH_CHECK at " + file + ":" + std::to_string(line) + ")");
}
}  // namespace kgen::shim
#define TORCH_CHECK(cond, ...) \
  do { if (!(cond)) ::kgen::shim::check_failed(#cond, __FILE__, __LINE__, ##__VA_ARGS__); } while (0)
#define TORCH_INTERNAL_ASSERT(cond, ...) TORCH_CHECK(cond, ##__VA_ARGS__)
#define AT_ASSERT(cond, ...) TORCH_CHECK(cond, ##__VA_ARGS__)
#define TORCH_WARN(...) do {} while (0)
#define AT_ERROR(...) ::kgen::shim::check_failed("false", __FILE__, __LINE__, ##__VA_ARGS__)

// ---- the aclnn argument objects a binding may build itself (NPUKernelBench's pytorch_npu_helper.hpp) ----
// On the chip these are opaque handles made by aclCreateIntArray / aclCreateScalar; a binding makes them with the
// helper's ConvertType(at::IntArrayRef) or ConvertTensorToAclScaler(tensor) and passes the pointer to EXEC_NPU_CMD,
// which hands it to the aclnn function unchanged. Here they hold the values (kept for the process, as the chip's
// helper never destroys the ones a binding makes).
struct aclIntArray { std::vector<int64_t> values; };
struct aclScalar { c10::Scalar value; };
namespace kgen::shim {
template <class T, class... A> T* acl_object(A&&... a) {
  static std::vector<std::unique_ptr<T>> made;
  made.push_back(std::make_unique<T>(T{std::forward<A>(a)...}));
  return made.back().get();
}
}  // namespace kgen::shim
inline aclIntArray* ConvertType(const at::IntArrayRef& v) { return kgen::shim::acl_object<aclIntArray>(v.vec()); }
inline aclScalar* ConvertType(const c10::Scalar& s) { return kgen::shim::acl_object<aclScalar>(s); }
// The tensor's first element as a scalar of its dtype (aclCreateScalar(tensor.data_ptr(), dtype)).
inline aclScalar* ConvertTensorToAclScaler(const at::Tensor& t) {
  TORCH_CHECK(t.numel() >= 1, "ConvertTensorToAclScaler: the tensor is empty");
  const at::Tensor first = t.reshape({-1}).narrow(0, 0, 1);
  c10::Scalar v = first.item();
  if (t.scalar_type() == at::ScalarType::Bool) v = c10::Scalar(v.toLong() != 0);
  return kgen::shim::acl_object<aclScalar>(v);
}

// ---- pybind11 / torch library registration ----
namespace kgen::shim {
using Invoker = std::function<void(const kgen::op::BindArg*, size_t, std::vector<kgen::op::BindArg>*)>;
inline std::map<std::string, Invoker>& functions() { static std::map<std::string, Invoker> m; return m; }
inline std::vector<at::Tensor>& kept() { static std::vector<at::Tensor> k; return k; }

inline at::ScalarType scalar_type_of_ge(int ge) {
  switch (ge) {
    case 0: return at::kFloat; case 1: return at::kHalf; case 2: return at::kChar; case 3: return at::kInt;
    case 4: return at::kByte; case 6: return at::kShort; case 9: return at::kLong; case 11: return at::kDouble;
    case 12: return at::kBool; case 16: return at::kComplexFloat; case 27: return at::kBFloat16;
    default: fail("kgen torch shim: unsupported ge::DataType " + std::to_string(ge));
  }
}
inline int ge_of(at::ScalarType t) {
  switch (t) {
    case at::ScalarType::Float: return 0; case at::ScalarType::Half: return 1; case at::ScalarType::Char: return 2;
    case at::ScalarType::Int: return 3; case at::ScalarType::Byte: return 4; case at::ScalarType::Short: return 6;
    case at::ScalarType::Long: return 9; case at::ScalarType::Double: return 11; case at::ScalarType::Bool: return 12;
    case at::ScalarType::BFloat16: return 27; case at::ScalarType::ComplexFloat: return 16;
    default: fail(std::string("kgen torch shim: unsupported dtype ") + c10::toString(t));
  }
}
inline const char* kind_name(int k) { return kgen::op::bind_kind_name(static_cast<kgen::op::BindArg::Kind>(k)); }

template <class T> struct Convert;   // BindArg -> a parameter of type T
template <class T> struct Convert<T&> : Convert<T> {};
template <class T> struct Convert<const T> : Convert<T> {};
template <class T> struct Convert<T&&> : Convert<T> {};
template <> struct Convert<at::Tensor> {
  static at::Tensor from(const kgen::op::BindArg& a, size_t i) {
    using K = kgen::op::BindArg;
    if (a.kind != K::Tensor) fail("argument " + std::to_string(i) + ": expected a tensor, got " + kind_name(a.kind));
    return at::Tensor::wrap(a.data, a.bytes, a.shape, scalar_type_of_ge(a.dtype));
  }
};
template <> struct Convert<std::vector<at::Tensor>> {   // at::TensorList too
  static std::vector<at::Tensor> from(const kgen::op::BindArg& a, size_t i) {
    using K = kgen::op::BindArg;
    if (a.kind != K::TensorList) fail("argument " + std::to_string(i) + ": expected a list of tensors, got " + kind_name(a.kind));
    std::vector<at::Tensor> r;
    for (const K& x : a.items) r.push_back(Convert<at::Tensor>::from(x, i));
    return r;
  }
};
template <class T> struct Convert<std::optional<T>> {
  static std::optional<T> from(const kgen::op::BindArg& a, size_t i) {
    if (a.kind == kgen::op::BindArg::None) return std::nullopt;
    return Convert<T>::from(a, i);
  }
};
template <class T> struct Arith {
  static T from(const kgen::op::BindArg& a, size_t i) {
    using K = kgen::op::BindArg;
    switch (a.kind) {
      case K::Int: return static_cast<T>(a.i);
      case K::Float:
        if constexpr (std::is_integral_v<T>) fail("argument " + std::to_string(i) + ": expected an int, got a float");
        return static_cast<T>(a.f);
      case K::Bool: return static_cast<T>(a.b);
      case K::Tensor: {   // pybind11 takes a one-element tensor for a number (Tensor.__float__ / __index__ / __bool__)
        size_t n = 1;
        for (int64_t d : a.shape) n *= static_cast<size_t>(d);
        if (n != 1) fail("argument " + std::to_string(i) + ": expected a number, got a tensor of " + std::to_string(n) +
                         " elements (only a one-element tensor converts to a number)");
        const at::ScalarType t = scalar_type_of_ge(a.dtype);
        const bool floating = t == at::kFloat || t == at::kDouble || t == at::kHalf || t == at::kBFloat16;
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
          if (floating) fail("argument " + std::to_string(i) + ": expected an int, got a floating tensor");
        return static_cast<T>(at::detail::load(static_cast<const uint8_t*>(a.data), t));
      }
      default: fail("argument " + std::to_string(i) + ": expected a number, got " + kind_name(a.kind));
    }
  }
};
template <> struct Convert<double> : Arith<double> {};
template <> struct Convert<float> : Arith<float> {};
template <> struct Convert<int64_t> : Arith<int64_t> {};
template <> struct Convert<int32_t> : Arith<int32_t> {};
template <> struct Convert<uint32_t> : Arith<uint32_t> {};
template <> struct Convert<uint64_t> : Arith<uint64_t> {};
template <> struct Convert<long long> : Arith<long long> {};
template <> struct Convert<bool> : Arith<bool> {};
template <> struct Convert<c10::Scalar> {
  static c10::Scalar from(const kgen::op::BindArg& a, size_t i) {
    using K = kgen::op::BindArg;
    if (a.kind == K::Int) return c10::Scalar(a.i);
    if (a.kind == K::Bool) return c10::Scalar(a.b);
    return c10::Scalar(Arith<double>::from(a, i));
  }
};
template <> struct Convert<std::string> {
  static std::string from(const kgen::op::BindArg& a, size_t i) {
    if (a.kind != kgen::op::BindArg::Str) fail("argument " + std::to_string(i) + ": expected a str, got " + kind_name(a.kind));
    return a.s;
  }
};
// pybind11 passes a str to a const char* parameter as a pointer into the Python string, valid for the call; here
// into the call's argument, which lives as long.
template <> struct Convert<const char*> {
  static const char* from(const kgen::op::BindArg& a, size_t i) {
    if (a.kind != kgen::op::BindArg::Str) fail("argument " + std::to_string(i) + ": expected a str, got " + kind_name(a.kind));
    return a.s.c_str();
  }
};
template <> struct Convert<std::string_view> {
  static std::string_view from(const kgen::op::BindArg& a, size_t i) {
    if (a.kind != kgen::op::BindArg::Str) fail("argument " + std::to_string(i) + ": expected a str, got " + kind_name(a.kind));
    return a.s;
  }
};
template <> struct Convert<std::vector<int64_t>> {
  static std::vector<int64_t> from(const kgen::op::BindArg& a, size_t i) {
    using K = kgen::op::BindArg;
    if (a.kind == K::Int) return {a.i};
    if (a.kind != K::IntList) fail("argument " + std::to_string(i) + ": expected a list of ints, got " + kind_name(a.kind));
    return a.ints;
  }
};
template <> struct Convert<c10::IntArrayRef> {
  static c10::IntArrayRef from(const kgen::op::BindArg& a, size_t i) { return Convert<std::vector<int64_t>>::from(a, i); }
};
template <> struct Convert<std::vector<double>> {
  static std::vector<double> from(const kgen::op::BindArg& a, size_t i) {
    using K = kgen::op::BindArg;
    if (a.kind == K::IntList) return std::vector<double>(a.ints.begin(), a.ints.end());
    if (a.kind != K::FloatList) fail("argument " + std::to_string(i) + ": expected a list of floats, got " + kind_name(a.kind));
    return a.floats;
  }
};
template <> struct Convert<std::vector<float>> {
  static std::vector<float> from(const kgen::op::BindArg& a, size_t i) {
    auto d = Convert<std::vector<double>>::from(a, i);
    return std::vector<float>(d.begin(), d.end());
  }
};

inline void put_result(const at::Tensor& t, std::vector<kgen::op::BindArg>* out) {
  kgen::op::BindArg r;
  if (!t.defined()) { r.kind = kgen::op::BindArg::None; out->push_back(r); return; }
  at::Tensor c = t.contiguous();
  kept().push_back(c);
  r.kind = kgen::op::BindArg::Tensor;
  r.shape = c.sizes().vec();
  r.dtype = ge_of(c.scalar_type());
  r.data = c.data_ptr();
  r.bytes = c.nbytes();
  out->push_back(r);
}
template <class R> void put_any(const R& v, std::vector<kgen::op::BindArg>* out);
template <class T> struct is_tuple : std::false_type {};
template <class... T> struct is_tuple<std::tuple<T...>> : std::true_type {};
template <class R> void put_any(const R& v, std::vector<kgen::op::BindArg>* out) {
  using K = kgen::op::BindArg;
  if constexpr (std::is_same_v<R, at::Tensor>) put_result(v, out);
  else if constexpr (std::is_same_v<R, std::vector<at::Tensor>>) {   // a python list of tensors
    K r;
    r.kind = K::TensorList;
    for (const auto& t : v) put_result(t, &r.items);
    out->push_back(r);
  }
  else if constexpr (is_tuple<R>::value) std::apply([&](const auto&... e) { (put_any(e, out), ...); }, v);
  else if constexpr (std::is_same_v<R, bool>) { K r; r.kind = K::Bool; r.b = v; out->push_back(r); }
  else if constexpr (std::is_integral_v<R>) { K r; r.kind = K::Int; r.i = v; out->push_back(r); }
  else if constexpr (std::is_floating_point_v<R>) { K r; r.kind = K::Float; r.f = v; out->push_back(r); }
  else static_assert(dependent_false<R>, "kgen torch shim: unsupported return type of a bound function");
}

template <class F> struct Sig;
template <class R, class... A> struct Sig<R (*)(A...)> { using Ret = R; using Args = std::tuple<A...>; };
template <class R, class... A> struct Sig<R(A...)> : Sig<R (*)(A...)> {};
template <class C, class R, class... A> struct Sig<R (C::*)(A...) const> : Sig<R (*)(A...)> {};
template <class C, class R, class... A> struct Sig<R (C::*)(A...)> : Sig<R (*)(A...)> {};
template <class F, class = void> struct SigOf : Sig<std::decay_t<F>> {};
template <class F> struct SigOf<F, std::void_t<decltype(&std::decay_t<F>::operator())>>
    : Sig<decltype(&std::decay_t<F>::operator())> {};

template <class F, class R, class... A, size_t... I>
void invoke(F& f, const kgen::op::BindArg* args, size_t n, std::vector<kgen::op::BindArg>* out, std::tuple<A...>*,
            std::index_sequence<I...>) {
  constexpr size_t N = sizeof...(A);
  if (n != N)
    fail("the function takes " + std::to_string(N) + " argument" + (N == 1 ? "" : "s") + ", " + std::to_string(n) +
         (n == 1 ? " was" : " were") + " given");
  auto conv = std::make_tuple(Convert<A>::from(args[I], I)...);
  if constexpr (std::is_void_v<R>) f(std::get<I>(conv)...);
  else put_any(static_cast<std::decay_t<R>>(f(std::get<I>(conv)...)), out);
}
template <class F> Invoker make_invoker(F f) {
  using S = SigOf<F>;
  using Args = typename S::Args;
  return [f](const kgen::op::BindArg* a, size_t n, std::vector<kgen::op::BindArg>* out) mutable {
    invoke<F, typename S::Ret>(f, a, n, out, static_cast<Args*>(nullptr), std::make_index_sequence<std::tuple_size_v<Args>>{});
  };
}

struct Module {
  template <class F, class... Extra> Module& def(const char* name, F&& f, const Extra&...) {
    functions()[name] = make_invoker(std::forward<F>(f));
    return *this;
  }
  Module def_submodule(const char*, const char* = nullptr) { return *this; }
  template <class... A> Module& attr(A&&...) { return *this; }
  std::string doc_;
  std::string& doc() { return doc_; }
};
struct Registrar { explicit Registrar(void (*init)(Module&)) { Module m; init(m); } };

// A kernel registered with torch (m.impl / m.def with a function) may only take the types torch's schema has:
// torch refuses the others at compile time (c10/core/boxing/impl/make_boxed_from_unboxed_functor.h), so the shim
// does too, with torch's wording.
template <class T> constexpr bool torch_input_ok() {
  using D = std::remove_cv_t<std::remove_reference_t<T>>;
  static_assert(!std::is_same_v<D, float>,
                "You tried to register a kernel with an unsupported input type: float. Please use double instead.");
  static_assert(!(std::is_integral_v<D> && !std::is_same_v<D, int64_t> && !std::is_same_v<D, bool>),
                "You tried to register a kernel with an unsupported integral input type. Please use int64_t instead.");
  static_assert(!std::is_same_v<D, const char*>,
                "You tried to register a kernel with an unsupported input type: const char*. Please use c10::string_view instead.");
  static_assert(!std::is_same_v<D, std::vector<bool>>,
                "You tried to register a kernel with an unsupported input type: vector<bool>. Please use List<bool> instead.");
  return true;
}
template <class R> constexpr bool torch_output_ok() {
  static_assert(!std::is_same_v<std::decay_t<R>, float>,
                "You tried to register a kernel with an unsupported output type: float. Please use double instead.");
  return true;
}
template <class R, class... A> constexpr bool torch_signature_ok(R (*)(A...)) {
  return (torch_output_ok<R>() && ... && torch_input_ok<A>());
}
template <class F> void check_torch_kernel(const F& f) {
  if constexpr (std::is_function_v<std::remove_pointer_t<std::decay_t<F>>>)
    static_assert(torch_signature_ok(static_cast<std::decay_t<F>>(nullptr)));
  (void)f;
}
// TORCH_LIBRARY / TORCH_LIBRARY_IMPL bodies run against this; only the kernels' signatures are checked.
struct Library {
  template <class... A> Library& def(A&&... a) { (check_torch_kernel(a), ...); return *this; }
  template <class... A> Library& impl(A&&... a) { (check_torch_kernel(a), ...); return *this; }
};
struct LibRegistrar { explicit LibRegistrar(void (*init)(Library&)) { Library l; init(l); } };

// EXEC_NPU_CMD: every argument becomes a BindArg; tensors are passed by their (contiguous) storage, written in place.
struct ExecArgs {
  std::vector<kgen::op::BindArg> v;
  std::vector<at::Tensor> tmp;        // non-contiguous tensors copied for the call
  std::vector<std::pair<at::Tensor, size_t>> writeback;
  // Each add() records the C++ type passed (BindArg::cpp): on the chip the aclnn function is called through a
  // pointer typed from it, and exec_aclnn refuses a type that would arrive garbled.
  void push(kgen::op::BindArg a, const char* cpp) { a.cpp = cpp; v.push_back(std::move(a)); }
  void add(const at::Tensor& t) {
    kgen::op::BindArg a;
    if (!t.defined()) { a.kind = kgen::op::BindArg::None; push(a, "at::Tensor"); return; }
    at::Tensor c = t;
    if (!t.is_contiguous()) { c = t.contiguous(); tmp.push_back(c); writeback.push_back({t, tmp.size() - 1}); }
    a.kind = kgen::op::BindArg::Tensor;
    a.shape = c.sizes().vec(); a.dtype = ge_of(c.scalar_type()); a.data = c.data_ptr(); a.bytes = c.nbytes();
    push(a, "at::Tensor");
  }
  void add(const std::optional<at::Tensor>& t) { if (t) add(*t); else add(at::Tensor()); }
  // at::TensorList: one argument, an aclTensorList* for a DYNAMIC input or output of the generated aclnn function.
  void add(const std::vector<at::Tensor>& l) {
    ExecArgs each;
    for (const at::Tensor& t : l) each.add(t);
    kgen::op::BindArg a;
    a.kind = kgen::op::BindArg::TensorList;
    a.items = std::move(each.v);
    for (auto& t : each.tmp) tmp.push_back(t);
    size_t base = tmp.size() - each.tmp.size();
    for (auto& [t, k] : each.writeback) writeback.push_back({t, base + k});
    push(a, "at::TensorList");
  }
  static kgen::op::BindArg scalar_arg(const c10::Scalar& s) {
    kgen::op::BindArg a;
    if (s.isBoolean()) { a.kind = kgen::op::BindArg::Bool; a.b = s.toBool(); }
    else if (s.isIntegral()) { a.kind = kgen::op::BindArg::Int; a.i = s.toLong(); }
    else { a.kind = kgen::op::BindArg::Float; a.f = s.toDouble(); }
    return a;
  }
  void add(const c10::Scalar& s) { push(scalar_arg(s), "at::Scalar"); }
  // at::ArrayRef<at::Scalar>: one argument, an aclScalarList* for a ScalarList() input.
  void add(const c10::ArrayRef<c10::Scalar>& l) {
    kgen::op::BindArg a;
    a.kind = kgen::op::BindArg::ScalarList;
    for (const c10::Scalar& s : l) a.items.push_back(scalar_arg(s));
    push(a, "at::ArrayRef<at::Scalar>");
  }
  void add(bool b) { kgen::op::BindArg a; a.kind = kgen::op::BindArg::Bool; a.b = b; push(a, "bool"); }
  template <class T> static const char* int_name() {
    constexpr bool s = std::is_signed_v<T>;
    switch (sizeof(T)) {
      case 1: return s ? "int8_t" : "uint8_t";
      case 2: return s ? "int16_t" : "uint16_t";
      case 4: return s ? "int32_t" : "uint32_t";
      default: return s ? "int64_t" : "uint64_t";
    }
  }
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0> void add(T x) {
    kgen::op::BindArg a; a.kind = kgen::op::BindArg::Int; a.i = static_cast<int64_t>(x); push(a, int_name<T>());
  }
  template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0> void add(T x) {
    kgen::op::BindArg a; a.kind = kgen::op::BindArg::Float; a.f = static_cast<double>(x);
    push(a, std::is_same_v<T, float> ? "float" : std::is_same_v<T, double> ? "double" : "long double");
  }
  void add(const c10::IntArrayRef& l) { kgen::op::BindArg a; a.kind = kgen::op::BindArg::IntList; a.ints = l.vec(); push(a, "at::IntArrayRef"); }
  void add_ints(const std::vector<int64_t>& l, const char* cpp) {
    kgen::op::BindArg a; a.kind = kgen::op::BindArg::IntList; a.ints = l; push(a, cpp);
  }
  void add(const std::vector<int64_t>& l) { add_ints(l, "std::vector<int64_t>"); }
  void add(const std::vector<int32_t>& l) { add_ints(std::vector<int64_t>(l.begin(), l.end()), "std::vector<int32_t>"); }
  void add_floats(const std::vector<double>& l, const char* cpp) {
    kgen::op::BindArg a; a.kind = kgen::op::BindArg::FloatList; a.floats = l; push(a, cpp);
  }
  void add(const std::vector<double>& l) { add_floats(l, "std::vector<double>"); }
  void add(const std::vector<float>& l) { add_floats(std::vector<double>(l.begin(), l.end()), "std::vector<float>"); }
  void add(const std::vector<bool>& l) { kgen::op::BindArg a; a.kind = kgen::op::BindArg::BoolList; a.bools = l; push(a, "std::vector<bool>"); }
  void add(const std::string& s) { kgen::op::BindArg a; a.kind = kgen::op::BindArg::Str; a.s = s; push(a, "std::string"); }
  void add(const char* s) { kgen::op::BindArg a; a.kind = kgen::op::BindArg::Str; a.s = s; push(a, "const char*"); }
  void add(std::nullopt_t) { kgen::op::BindArg a; a.kind = kgen::op::BindArg::None; push(a, "c10::nullopt"); }
  template <class T> void add(const std::optional<T>& o) { if (o) add(*o); else add(std::nullopt); }
  void add(const aclIntArray* l) { add_ints(l ? l->values : std::vector<int64_t>(), "aclIntArray*"); }
  void add(const aclScalar* s) {
    if (!s) { add(std::nullopt); return; }
    add(s->value);
    v.back().cpp = "aclScalar*";
  }
  void add(at::ScalarType t) { kgen::op::BindArg a; a.kind = kgen::op::BindArg::Int; a.i = ge_of(t); push(a, "at::ScalarType"); }
};
template <class... A> void exec(const char* api, const char* file, int line, const A&... a) {
  ExecArgs e;
  (e.add(a), ...);
  const std::string site = std::string(file) + ":" + std::to_string(line);
  std::string err = kgen::op::exec_aclnn(api, e.v, site);
  if (!err.empty()) {
    if (err.back() != '\n') err += '\n';
    // A diagnostic without a line (e.g. the argument count) points at the EXEC_NPU_CMD call itself.
    size_t b = err.find("] "), e = b == std::string::npos ? b : err.find(": ", b + 2);
    size_t nl = err.find('\n');
    if (err.rfind("error[", 0) == 0 && e != std::string::npos && e < nl &&
        err.substr(b + 2, e - b - 2).find(':') == std::string::npos) {
      std::string where = err.substr(b + 2, e - b - 2);
      err = err.substr(0, b + 2) + site + err.substr(e);
      err += "  the OpDef: " + where + "\n";
    } else {
      err += std::string("  called by EXEC_NPU_CMD(") + api + ", ...) at " + site + "\n";
    }
    throw kgen::shim::ExecError(err);
  }
  for (auto& [t, i] : e.writeback) const_cast<at::Tensor&>(t).copy_(e.tmp[i]);
}
}  // namespace kgen::shim

#define KGEN_SHIM_CAT2(a, b) a##b
#define KGEN_SHIM_CAT(a, b) KGEN_SHIM_CAT2(a, b)
#define PYBIND11_MODULE(name, m)                                                           \
  static void KGEN_SHIM_CAT(kgen_pybind_init_, __LINE__)(::kgen::shim::Module&);           \
  static ::kgen::shim::Registrar KGEN_SHIM_CAT(kgen_pybind_reg_, __LINE__)(               \
      KGEN_SHIM_CAT(kgen_pybind_init_, __LINE__));                                         \
  static void KGEN_SHIM_CAT(kgen_pybind_init_, __LINE__)(::kgen::shim::Module & m)
#define KGEN_SHIM_LIB(m)                                                                   \
  static void KGEN_SHIM_CAT(kgen_torchlib_init_, __LINE__)(::kgen::shim::Library&);        \
  static ::kgen::shim::LibRegistrar KGEN_SHIM_CAT(kgen_torchlib_reg_, __LINE__)(          \
      KGEN_SHIM_CAT(kgen_torchlib_init_, __LINE__));                                       \
  static void KGEN_SHIM_CAT(kgen_torchlib_init_, __LINE__)(::kgen::shim::Library & m)
#define TORCH_LIBRARY(ns, m) KGEN_SHIM_LIB(m)
#define TORCH_LIBRARY_IMPL(ns, key, m) KGEN_SHIM_LIB(m)
#define TORCH_LIBRARY_FRAGMENT(ns, m) KGEN_SHIM_LIB(m)
#define EXEC_NPU_CMD(api, ...) ::kgen::shim::exec(#api, __FILE__, __LINE__, ##__VA_ARGS__)
#ifndef TORCH_EXTENSION_NAME
#define TORCH_EXTENSION_NAME custom_ops_lib
#endif

namespace pybind11 {
using module = kgen::shim::Module;
using module_ = kgen::shim::Module;
struct arg {
  explicit arg(const char*) {}
  template <class T> arg& operator=(const T&) { return *this; }
};
}  // namespace pybind11
namespace py = pybind11;
namespace at_npu::native {
struct OpCommand {};
}  // namespace at_npu::native
namespace c10_npu {
struct NPUStream { void* stream(bool = true) const { return nullptr; } };
inline NPUStream getCurrentNPUStream(int = -1) { return {}; }
}  // namespace c10_npu
