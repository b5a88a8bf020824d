// CANN's TilingData macros (register/tilingdata_base.h; guide 1048 "TilingData 结构定义", 1049 "TilingData 结构注册",
// 0069 "基本流程"), source-compatible and usable on both sides of an op project:
//  - host side (no kernel_operator.h included before this header): BEGIN_TILING_DATA_DEF(C) defines
//    `class C : public optiling::TilingDef` with set_<f>/get_<f> per field, SaveToBuffer(void*, size_t) and
//    GetDataSize(); REGISTER_TILING_DATA_CLASS(Op, C) registers C in optiling::CTilingDataClassFactory.
//  - kernel side (this header included after kernel_operator.h, i.e. GET_TILING_DATA is defined): the same
//    macros define a plain struct C with the same fields in the same order, and REGISTER_TILING_DATA_CLASS(Op, C)
//    makes C the type GET_TILING_DATA(t, tiling) declares when Op is the op's default registration (not an
//    intermediate "<C>Op" registration, not a per-tiling-key "<Op>_<key>" one).
// Layout (both sides, identical): fields in declaration order, each at the next offset that is a multiple of its
// alignment (scalars and array elements: their size, as CANN requires `offset % sizeof == 0` and pads otherwise;
// nested tiling structs: their largest field alignment); total size rounded up to the largest alignment, i.e. the
// C++ layout of the equivalent plain struct (guide 0072's table). Padding bytes are saved as zero.
// Errors (host): SaveToBuffer into a buffer smaller than GetDataSize() writes nothing and prints a kgen error
// line on stderr; kgen::tiling::save_failures() counts them (the op runner turns that into a failure).
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace optiling {
// CANN's host tiling classes of the high-level APIs (tiling/tiling_api.h), usable in TILING_DATA_FIELD_DEF_STRUCT;
// on the kernel side a field of one of these types is the kernel struct AscendC::tiling::<same name>.
class TCubeTiling;
class SoftMaxTiling;
class LogSoftMaxTiling;
class LayerNormTiling;
class RmsNormTiling;
struct KgenAdlAnchor;   // kgen-internal: associates kgen's registration tags with namespace optiling (ADL)
}  // namespace optiling

namespace kgen::tiling {
template <class T>
inline constexpr bool is_field_type =
    std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
    std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t> || std::is_same_v<T, float> ||
    std::is_same_v<T, bool>;   // not in CANN's list, but NPUKernelBench answers that pass on the chip use it

// Kind of a REGISTER_TILING_DATA_CLASS(op, cls) registration: 0 the op's default struct, 1 an intermediate
// struct ("<cls>Op"), 2 a per-tiling-key struct ("<op>_<digits>").
constexpr int reg_kind(const char* op, const char* cls) {
  size_t no = 0, nc = 0;
  while (op[no]) ++no;
  while (cls[nc]) ++nc;
  if (no == nc + 2 && op[nc] == 'O' && op[nc + 1] == 'p') {
    bool same = true;
    for (size_t i = 0; i < nc; ++i) same = same && op[i] == cls[i];
    if (same) return 1;
  }
  size_t us = no;
  for (size_t i = 0; i < no; ++i)
    if (op[i] == '_') us = i;
  if (us < no && us + 1 < no) {
    bool digits = true;
    for (size_t i = us + 1; i < no; ++i) digits = digits && op[i] >= '0' && op[i] <= '9';
    if (digits) return 2;
  }
  return 0;
}
template <int K, class C, class A = ::optiling::KgenAdlAnchor>
struct RegTag {};
template <int K, class C>
using reg_tag_t = RegTag<K, std::conditional_t<K == 0, void, C>>;
}  // namespace kgen::tiling

#define KGEN_TILING_FIELD_TYPE_CHECK(type)                                                                     \
  static_assert(::kgen::tiling::is_field_type<type>,                                                           \
                "TILING_DATA_FIELD_DEF / TILING_DATA_FIELD_DEF_ARR: only int8_t, uint8_t, int16_t, uint16_t, " \
                "int32_t, uint32_t, int64_t, uint64_t, float and bool fields are allowed (CANN)")

#if defined(GET_TILING_DATA) && !defined(KGEN_TILING_HOST_SIDE)
// ---------------------------------------------------------------------------------------------- kernel side
#include "kernel_tiling/kernel_tiling.h"
namespace kgen::tiling {
template <class S>
struct kernel_struct { using type = S; };
#define KGEN_TILING_KERNEL_STRUCT(name) \
  template <>                           \
  struct kernel_struct<::optiling::name> { using type = ::AscendC::tiling::name; };
KGEN_TILING_KERNEL_STRUCT(TCubeTiling)
KGEN_TILING_KERNEL_STRUCT(SoftMaxTiling)
KGEN_TILING_KERNEL_STRUCT(LogSoftMaxTiling)
KGEN_TILING_KERNEL_STRUCT(LayerNormTiling)
KGEN_TILING_KERNEL_STRUCT(RmsNormTiling)
#undef KGEN_TILING_KERNEL_STRUCT
template <class S>
using kernel_struct_t = typename kernel_struct<S>::type;
}  // namespace kgen::tiling

#define BEGIN_TILING_DATA_DEF(class_name) struct class_name {
#define TILING_DATA_FIELD_DEF(data_type, field_name) \
  KGEN_TILING_FIELD_TYPE_CHECK(data_type);           \
  data_type field_name;
#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name) \
  KGEN_TILING_FIELD_TYPE_CHECK(arr_type);                         \
  arr_type field_name[arr_size];
#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name) ::kgen::tiling::kernel_struct_t<struct_type> field_name;
#define END_TILING_DATA_DEF };   // with the semicolon, as in CANN: some projects write it without one
// Declaration only (used in decltype): the op's default registration answers the RegTag<0, void> lookup.
#define REGISTER_TILING_DATA_CLASS(op_type, class_name) \
  class_name kgen_default_tiling(::kgen::tiling::reg_tag_t<::kgen::tiling::reg_kind(#op_type, #class_name), class_name>);

// GET_TILING_DATA declares the op's default tiling struct: the one registered with REGISTER_TILING_DATA_CLASS
// (found by argument-dependent lookup in optiling, or by ordinary lookup at global scope), or REGISTER_TILING_DEFAULT's.
#undef REGISTER_TILING_DEFAULT
#define REGISTER_TILING_DEFAULT(tilingStruct) \
  using KgenDefaultTilingType = tilingStruct; \
  tilingStruct kgen_default_tiling(::kgen::tiling::RegTag<0, void>)
#undef GET_TILING_DATA
#define GET_TILING_DATA(tilingData, tilingArg)                                     \
  decltype(kgen_default_tiling(::kgen::tiling::RegTag<0, void>{})) tilingData;     \
  ::kgen::rt::tiling_copy(&tilingData, (tilingArg), sizeof(tilingData), ::kgen::rt::Loc::current())

#else
// ------------------------------------------------------------------------------------------------ host side
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace optiling {
class TilingDef;
}

// The registry and the serialization live in libkgen_host (src/host/tiling_data.cpp): every op_host file includes
// this header, and code defined here would be instantiated and compiled again for each one.
namespace kgen::tiling {
// Number of SaveToBuffer calls that failed (buffer too small) in this process.
int save_failures();

struct FieldDesc {
  ptrdiff_t member;  // byte offset of the member object from the TilingDef subobject
  size_t offset;     // byte offset in the saved tiling data
  size_t size;
  void (*save)(const void* member, void* dst, size_t size);
};
inline void save_raw(const void* member, void* dst, size_t size) { std::memcpy(dst, member, size); }
template <class S>
void save_struct(const void* member, void* dst, size_t size) {
  static_cast<const S*>(member)->SaveToBuffer(dst, size);
}
template <class S>
size_t struct_align(const S& s);
struct FieldReg {
  template <class T>
  FieldReg(optiling::TilingDef* owner, T* member, size_t count);  // scalar (count 0) or array field
  template <class S>
  FieldReg(optiling::TilingDef* owner, S* member);  // nested tiling struct
  FieldReg(const FieldReg&) {}
  FieldReg& operator=(const FieldReg&) { return *this; }
};
}  // namespace kgen::tiling

namespace optiling {
// Base of every BEGIN_TILING_DATA_DEF class: the field table, serialization and size.
class TilingDef {
 public:
  void SaveToBuffer(void* pData, size_t capacity) const;
  size_t GetDataSize() const { return (data_size_ + align_ - 1) / align_ * align_; }
  const char* GetTilingClassName() const { return class_name_; }
  // CANN's reserved interface: the fields live in `ptr` (the raw tiling buffer) rather than in SaveToBuffer's copy.
  // Here they are saved there when the object dies (the most derived destructor, while nested structs still live),
  // which is before the runner reads the raw tiling data: TilingFunc has returned.
  void SetDataPtr(void* ptr) { data_ptr_ = ptr; }

 protected:
  explicit TilingDef(const char* class_name);
  TilingDef(const TilingDef& o);   // the field table holds offsets from the object, so a copy takes it as is
  TilingDef& operator=(const TilingDef& o);
  ~TilingDef();
  void kgen_flush_data_ptr() const;   // SetDataPtr's buffer <- the fields (nothing without one)

 private:
  friend struct kgen::tiling::FieldReg;
  template <class S>
  friend size_t kgen::tiling::struct_align(const S&);
  void kgen_add(const void* member, size_t size, size_t align, void (*save)(const void*, void*, size_t));
  struct Fields;                // the field table (a vector of FieldDesc), in the library
  const char* class_name_;
  Fields* fields_;
  size_t data_size_ = 0;
  size_t align_ = 1;
  void* data_ptr_ = nullptr;    // SetDataPtr's buffer, written when the object dies (copies do not take it)
};

// CANN's registry of tiling classes by op type ("<Op>", "<Op>_<tilingKey>", "<Struct>Op").
class CTilingDataClassFactory {
 public:
  using TilingDataConstructor = std::shared_ptr<TilingDef> (*)();
  static CTilingDataClassFactory& GetInstance();
  void RegisterTilingData(const char* op_type, const TilingDataConstructor constructor);
  std::shared_ptr<TilingDef> CreateTilingDataInstance(const char* op_type);

 private:
  CTilingDataClassFactory() = default;
};
}  // namespace optiling

namespace kgen::tiling {
template <class S>
size_t struct_align(const S& s) {
  if constexpr (std::is_base_of_v<optiling::TilingDef, S>) {
    return static_cast<const optiling::TilingDef&>(s).align_;
  } else {
    static_assert(std::is_same_v<S, optiling::TCubeTiling>,
                  "TILING_DATA_FIELD_DEF_STRUCT: the struct type must be defined with BEGIN_TILING_DATA_DEF "
                  "(or be one of CANN's host tiling classes such as TCubeTiling)");
    return alignof(int32_t);  // TCubeTiling: int32 fields
  }
}
template <class T>
FieldReg::FieldReg(optiling::TilingDef* owner, T* member, size_t count) {
  owner->kgen_add(member, sizeof(T) * (count ? count : 1), alignof(T), &save_raw);
}
template <class S>
FieldReg::FieldReg(optiling::TilingDef* owner, S* member) {
  owner->kgen_add(member, member->GetDataSize(), struct_align(*member), &save_struct<S>);
}
template <class C>
struct Registrar {
  explicit Registrar(const char* op_type) {
    optiling::CTilingDataClassFactory::GetInstance().RegisterTilingData(
        op_type, []() -> std::shared_ptr<optiling::TilingDef> { return std::make_shared<C>(); });
  }
};
}  // namespace kgen::tiling

#define BEGIN_TILING_DATA_DEF(class_name)                     \
  class class_name : public ::optiling::TilingDef {           \
   public:                                                    \
    class_name() : ::optiling::TilingDef(#class_name) {}      \
    class_name(const class_name&) = default;                  \
    class_name& operator=(const class_name&) = default;       \
    ~class_name() { kgen_flush_data_ptr(); }

#define TILING_DATA_FIELD_DEF(data_type, field_name)                                                 \
 public:                                                                                              \
  KGEN_TILING_FIELD_TYPE_CHECK(data_type);                                                            \
  void set_##field_name(data_type field_name) { kgen_##field_name##_ = field_name; }                  \
  data_type get_##field_name() const { return kgen_##field_name##_; }                                 \
                                                                                                      \
 private:                                                                                             \
  data_type kgen_##field_name##_ = 0;                                                                 \
  ::kgen::tiling::FieldReg kgen_reg_##field_name##_{this, &kgen_##field_name##_, size_t(0)};        \
                                                                                                      \
 public:

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                                              \
 public:                                                                                                        \
  KGEN_TILING_FIELD_TYPE_CHECK(arr_type);                                                                       \
  void set_##field_name(const arr_type* field_name) {                                                           \
    std::memcpy(kgen_##field_name##_, field_name, sizeof(kgen_##field_name##_));                                \
  }                                                                                                             \
  arr_type* get_##field_name() { return kgen_##field_name##_; }                                                 \
                                                                                                                \
 private:                                                                                                       \
  arr_type kgen_##field_name##_[arr_size] = {};                                                                 \
  ::kgen::tiling::FieldReg kgen_reg_##field_name##_{this, &kgen_##field_name##_[0], size_t(arr_size)};        \
                                                                                                                \
 public:

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                      \
 public:                                                                            \
  struct_type field_name;                                                           \
                                                                                    \
 private:                                                                           \
  ::kgen::tiling::FieldReg kgen_reg_##field_name##_{this, &field_name};            \
                                                                                    \
 public:

#define END_TILING_DATA_DEF };   // with the semicolon, as in CANN: some projects write it without one

#define REGISTER_TILING_DATA_CLASS(op_type, class_name) \
  static ::kgen::tiling::Registrar<class_name> g_tilingdata_##op_type##class_name##helper(#op_type);
#endif
