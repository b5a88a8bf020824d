// The out-of-line half of register/tilingdata_base.h (host side): the field table, SaveToBuffer and the registry of
// tiling classes. Here once, in libkgen_host, instead of compiled again in every op_host file that includes it.
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "register/tilingdata_base.h"

namespace kgen::tiling {
namespace {
int g_save_failures = 0;
}
int save_failures() { return g_save_failures; }
}  // namespace kgen::tiling

namespace optiling {
struct TilingDef::Fields {
  std::vector<kgen::tiling::FieldDesc> list;
};

TilingDef::TilingDef(const char* class_name) : class_name_(class_name), fields_(new Fields) {}
TilingDef::TilingDef(const TilingDef& o)
    : class_name_(o.class_name_), fields_(new Fields(*o.fields_)), data_size_(o.data_size_), align_(o.align_) {}
TilingDef& TilingDef::operator=(const TilingDef& o) {
  if (this != &o) {
    class_name_ = o.class_name_;
    *fields_ = *o.fields_;
    data_size_ = o.data_size_;
    align_ = o.align_;
  }
  return *this;
}
TilingDef::~TilingDef() { delete fields_; }

// CANN's TilingDef keeps its fields in SetDataPtr's buffer (a TilingFunc that calls SetDataPtr sets the fields and
// never calls SaveToBuffer); here the buffer receives them from the most derived destructor.
void TilingDef::kgen_flush_data_ptr() const {
  if (data_ptr_) SaveToBuffer(data_ptr_, GetDataSize());
}

void TilingDef::SaveToBuffer(void* pData, size_t capacity) const {
  size_t need = GetDataSize();
  if (pData == nullptr || capacity < need) {
    std::fprintf(stderr,
                 "kgen: error[param] SaveToBuffer: tiling data %s needs %zu bytes but the buffer holds %zu%s; "
                 "nothing was written. Make the tiling data smaller or pass the raw tiling buffer's capacity "
                 "(context->GetRawTilingData()->GetCapacity())\n",
                 class_name_, need, pData ? capacity : size_t(0), pData ? "" : " (null pointer)");
    ++kgen::tiling::g_save_failures;
    return;
  }
  auto* dst = static_cast<uint8_t*>(pData);
  std::memset(dst, 0, need);
  const auto* self = reinterpret_cast<const uint8_t*>(this);
  for (const auto& f : fields_->list) f.save(self + f.member, dst + f.offset, f.size);
}

void TilingDef::kgen_add(const void* member, size_t size, size_t align, void (*save)(const void*, void*, size_t)) {
  size_t off = (data_size_ + align - 1) / align * align;
  ptrdiff_t rel = reinterpret_cast<const uint8_t*>(member) - reinterpret_cast<const uint8_t*>(this);
  fields_->list.push_back({rel, off, size, save});
  data_size_ = off + size;
  if (align > align_) align_ = align;
}

namespace {
std::map<std::string, CTilingDataClassFactory::TilingDataConstructor>& constructors() {
  static std::map<std::string, CTilingDataClassFactory::TilingDataConstructor> m;
  return m;
}
}  // namespace

CTilingDataClassFactory& CTilingDataClassFactory::GetInstance() {
  static CTilingDataClassFactory f;
  return f;
}

void CTilingDataClassFactory::RegisterTilingData(const char* op_type, const TilingDataConstructor constructor) {
  auto& ctors = constructors();
  auto it = ctors.find(op_type);
  if (it != ctors.end() && it->second != constructor) {
    auto a = it->second(), b = constructor();
    std::fprintf(stderr,
                 "kgen: error[param] REGISTER_TILING_DATA_CLASS: op type %s is registered twice, with %s and %s; "
                 "an op type has one tiling class (register per-key classes as %s_<tilingKey>)\n",
                 op_type, a->GetTilingClassName(), b->GetTilingClassName(), op_type);
  }
  ctors[op_type] = constructor;
}

std::shared_ptr<TilingDef> CTilingDataClassFactory::CreateTilingDataInstance(const char* op_type) {
  auto& ctors = constructors();
  auto it = ctors.find(op_type);
  if (it == ctors.end()) return nullptr;
  return it->second();
}
}  // namespace optiling
