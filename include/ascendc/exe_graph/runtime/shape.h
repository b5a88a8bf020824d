// CANN exe_graph/runtime/shape.h: gert::Shape, up to kMaxDimNum dims stored inline.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>

namespace gert {
struct Shape {
 public:
  static constexpr size_t kMaxDimNum = 25;
  static constexpr int64_t kInvalidDimValue = std::numeric_limits<int64_t>::min();
  Shape() : dim_num_(0), dims_{0} {}
  Shape(const std::initializer_list<int64_t>& args) : Shape() {
    if (args.size() > kMaxDimNum) return;
    for (int64_t d : args) dims_[dim_num_++] = d;
  }
  Shape(const Shape& other) = default;
  Shape& operator=(const Shape& other) = default;
  bool operator==(const Shape& rht) const {
    if (dim_num_ != rht.dim_num_) return false;
    for (size_t i = 0; i < dim_num_; ++i)
      if (dims_[i] != rht.dims_[i]) return false;
    return true;
  }
  bool operator!=(const Shape& rht) const { return !(*this == rht); }
  int64_t GetShapeSize() const {
    int64_t n = 1;
    for (size_t i = 0; i < dim_num_; ++i) {
      if (dims_[i] < 0) return -1;
      n *= dims_[i];
    }
    return n;
  }
  bool IsScalar() const { return dim_num_ == 0; }
  void SetScalar() { dim_num_ = 0; }
  size_t GetDimNum() const { return dim_num_; }
  void SetDimNum(const size_t dim_num) { dim_num_ = dim_num > kMaxDimNum ? kMaxDimNum : dim_num; }
  int64_t GetDim(const size_t idx) const { return idx < dim_num_ ? dims_[idx] : kInvalidDimValue; }
  const int64_t& operator[](const size_t idx) const { return dims_[idx]; }
  int64_t& operator[](const size_t idx) { return dims_[idx]; }
  void SetDim(size_t idx, const int64_t dim_value) {
    if (idx >= kMaxDimNum) return;
    dims_[idx] = dim_value;
    dim_num_ = (dim_num_ < idx) ? idx : dim_num_;
  }
  Shape& AppendDim(const int64_t value) {
    if (dim_num_ < kMaxDimNum) dims_[dim_num_++] = value;
    return *this;
  }

 private:
  size_t dim_num_;
  int64_t dims_[kMaxDimNum];
};
}  // namespace gert
