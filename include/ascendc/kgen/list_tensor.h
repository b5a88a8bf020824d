// AscendC::ListTensorDesc / TensorDesc<T>: a kernel's view of a DYNAMIC (tensor-list) input or output. The GM
// address the kernel gets for such a param is a descriptor (src/op/runner.cpp tensor_list_desc): word 0 the byte
// offset of the pointer table, then per tensor a header word (rank | index << 32) and its dims, then the data
// pointers. Decoding follows CANN's (asc-devkit impl/basic_api/dav_c220/kernel_operator_list_tensor_impl.h),
// which assumes every tensor of the list has the same rank.
#pragma once
#include <cstdint>

#include "kgen/tensor.h"

namespace AscendC {
class ListTensorDesc;

template <class T>
class TensorDesc {
 public:
  __aicore__ inline TensorDesc() {}
  __aicore__ inline void SetShapeAddr(uint64_t* shape) { shape_ = shape; }
  __aicore__ inline uint64_t GetDim() { return dim_; }
  __aicore__ inline uint64_t GetIndex() { return index_; }
  __aicore__ inline uint64_t GetShape(uint32_t i) { return shape_[i]; }
  __aicore__ inline __gm__ T* GetDataPtr() { return ptr_; }
  __aicore__ inline GlobalTensor<T> GetDataObj() {
    uint64_t n = 1;
    for (uint32_t i = 0; i < dim_; ++i) n *= shape_[i];
    GlobalTensor<T> g;
    g.SetGlobalBuffer(ptr_, n);
    return g;
  }

 private:
  friend class ListTensorDesc;
  uint32_t dim_ = 0, index_ = 0;
  uint64_t* shape_ = nullptr;   // caller-provided (SetShapeAddr), filled by ListTensorDesc::GetDesc
  __gm__ T* ptr_ = nullptr;
};

class ListTensorDesc {
 public:
  __aicore__ inline ListTensorDesc() {}
  __aicore__ inline ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    Init(data, length, shapeSize);
  }
  __aicore__ inline void Init(__gm__ void* data, uint32_t = 0xffffffff, uint32_t = 0xffffffff) {
    auto* words = reinterpret_cast<__gm__ uint64_t*>(data);
    shapes_ = words + 1;
    ptrs_ = words + words[0] / sizeof(uint64_t);
    dim_ = static_cast<uint32_t>(shapes_[0] & 0xffffffffu);
    desc_words_ = dim_ == 0 ? 2 : 1 + dim_;
    uint32_t first = static_cast<uint32_t>(shapes_[0] >> 32);
    // A nonzero index in the first header is the count (one shared shape); else the last header's index + 1.
    count_ = first != 0 ? first
                        : (ptrs_ > shapes_ ? static_cast<uint32_t>(*(ptrs_ - desc_words_) >> 32) + 1 : 0);
  }
  template <class T>
  __aicore__ inline void GetDesc(TensorDesc<T>& desc, uint32_t index) {
    desc.dim_ = dim_;
    desc.index_ = index;
    desc.ptr_ = reinterpret_cast<__gm__ T*>(ptrs_[index]);
    const __gm__ uint64_t* dims = shapes_ + static_cast<uint64_t>(index) * desc_words_ + 1;
    for (uint32_t i = 0; i < dim_ && desc.shape_; ++i) desc.shape_[i] = dims[i];
  }
  template <class T>
  __aicore__ inline __gm__ T* GetDataPtr(uint32_t index) {
    return reinterpret_cast<__gm__ T*>(ptrs_[index]);
  }
  __aicore__ inline uint32_t GetSize() { return count_; }

 private:
  __gm__ uint64_t* shapes_ = nullptr;
  __gm__ uint64_t* ptrs_ = nullptr;
  uint32_t dim_ = 0, desc_words_ = 0, count_ = 0;
};
}  // namespace AscendC
