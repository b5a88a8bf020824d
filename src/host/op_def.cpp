// CANN's OpDef builder classes (register/op_def.h) and the registry OP_ADD fills (ops::OpDefFactory).
#include <cctype>
#include <cstdio>
#include <exception>
#include <mutex>

#include "host/host_internal.h"

namespace ops {
// ------------------------------------------------------------------------------------------------ OpParamDef
OpParamDef::OpParamDef(const char* name) : impl_(new OpParamDefImpl) { impl_->name = name ? name : ""; }
OpParamDef::OpParamDef(const OpParamDef& def) : impl_(new OpParamDefImpl(*def.impl_)) {}
OpParamDef::~OpParamDef() { delete impl_; }
OpParamDef& OpParamDef::operator=(const OpParamDef& def) {
  if (this != &def) *impl_ = *def.impl_;
  return *this;
}
OpParamDef& OpParamDef::ParamType(Option param_type) {
  impl_->type = param_type;
  return *this;
}
static std::vector<int> ints_of(const std::vector<ge::DataType>& v) { return std::vector<int>(v.begin(), v.end()); }
static std::vector<int> ints_of(const std::vector<ge::Format>& v) { return std::vector<int>(v.begin(), v.end()); }
OpParamDef& OpParamDef::DataType(std::vector<ge::DataType> types) {
  impl_->dtypes = ints_of(types);
  impl_->dtype_list = false;
  return *this;
}
OpParamDef& OpParamDef::DataTypeList(std::vector<ge::DataType> types) {
  impl_->dtypes = ints_of(types);
  impl_->dtype_list = true;
  return *this;
}
OpParamDef& OpParamDef::Format(std::vector<ge::Format> formats) {
  impl_->formats = ints_of(formats);
  impl_->format_list = false;
  return *this;
}
OpParamDef& OpParamDef::FormatList(std::vector<ge::Format> formats) {
  impl_->formats = ints_of(formats);
  impl_->format_list = true;
  return *this;
}
OpParamDef& OpParamDef::UnknownShapeFormat(std::vector<ge::Format> formats) {
  impl_->unknown_shape_formats = ints_of(formats);
  return *this;
}
OpParamDef& OpParamDef::ValueDepend(Option) {
  impl_->value_depend = true;
  return *this;
}
OpParamDef& OpParamDef::ValueDepend(Option, DependScope) {
  impl_->value_depend = true;
  return *this;
}
OpParamDef& OpParamDef::IgnoreContiguous(void) { return *this; }
OpParamDef& OpParamDef::AutoContiguous() { return *this; }
OpParamDef& OpParamDef::Scalar() {
  impl_->scalar = true;
  return *this;
}
OpParamDef& OpParamDef::ScalarList() {
  impl_->scalar_list = true;
  return *this;
}
OpParamDef& OpParamDef::To(const ge::DataType) { return *this; }
OpParamDef& OpParamDef::To(const char*) { return *this; }
OpParamDef& OpParamDef::Version(uint32_t) { return *this; }
OpParamDef& OpParamDef::InitValue(uint64_t) { return *this; }
OpParamDef& OpParamDef::OutputShapeDependOnCompute() { return *this; }
OpParamDef& OpParamDef::Follow(const char*) { return *this; }
OpParamDef& OpParamDef::Follow(const char*, FollowType) { return *this; }
OpParamDef& OpParamDef::Comment(const char*) { return *this; }

// ------------------------------------------------------------------------------------------------- OpAttrDef
OpAttrDef::OpAttrDef(const char* name) : impl_(new OpAttrDefImpl) { impl_->name = name ? name : ""; }
OpAttrDef::OpAttrDef(const OpAttrDef& d) : impl_(new OpAttrDefImpl(*d.impl_)) {}
OpAttrDef::~OpAttrDef() { delete impl_; }
OpAttrDef& OpAttrDef::operator=(const OpAttrDef& d) {
  if (this != &d) *impl_ = *d.impl_;
  return *this;
}
OpAttrDef& OpAttrDef::AttrType(Option attr_type) {
  impl_->required = attr_type == REQUIRED;
  return *this;
}
#define KGEN_ATTR_KIND(Method, kind, field, CppT)             \
  OpAttrDef& OpAttrDef::Method(void) {                       \
    impl_->value = kgen::host::AttrValue();                  \
    impl_->value.type = kind;                                \
    return *this;                                            \
  }                                                          \
  OpAttrDef& OpAttrDef::Method(CppT value) {                 \
    impl_->value = kgen::host::AttrValue();                  \
    impl_->value.type = kind;                                \
    impl_->value.field = value;                              \
    return *this;                                            \
  }
KGEN_ATTR_KIND(Bool, "bool", b, bool)
KGEN_ATTR_KIND(Float, "float", f, float)
KGEN_ATTR_KIND(Int, "int", i, int64_t)
KGEN_ATTR_KIND(ListBool, "list_bool", bools, std::vector<bool>)
KGEN_ATTR_KIND(ListInt, "list_int", ints, std::vector<int64_t>)
KGEN_ATTR_KIND(ListListInt, "list_list_int", int_lists, std::vector<std::vector<int64_t>>)
#undef KGEN_ATTR_KIND
OpAttrDef& OpAttrDef::String(void) {
  impl_->value = kgen::host::AttrValue();
  impl_->value.type = "str";
  return *this;
}
OpAttrDef& OpAttrDef::String(const char* value) {
  String();
  impl_->value.s = value ? value : "";
  return *this;
}
OpAttrDef& OpAttrDef::ListFloat(void) {
  impl_->value = kgen::host::AttrValue();
  impl_->value.type = "list_float";
  return *this;
}
OpAttrDef& OpAttrDef::ListFloat(std::vector<float> value) {
  ListFloat();
  impl_->value.floats.assign(value.begin(), value.end());
  return *this;
}
OpAttrDef& OpAttrDef::Version(uint32_t) { return *this; }
OpAttrDef& OpAttrDef::Comment(const char*) { return *this; }

// -------------------------------------------------------------------------------------------- OpAICoreConfig
OpAICoreConfig::OpAICoreConfig() : impl_(new OpAICoreConfigImpl) {}
OpAICoreConfig::OpAICoreConfig(const char*) : impl_(new OpAICoreConfigImpl) {}
OpAICoreConfig::OpAICoreConfig(const OpAICoreConfig& c) : impl_(new OpAICoreConfigImpl(*c.impl_)) {}
OpAICoreConfig::~OpAICoreConfig() { delete impl_; }
OpAICoreConfig& OpAICoreConfig::operator=(const OpAICoreConfig& c) {
  if (this != &c) *impl_ = *c.impl_;
  return *this;
}
static OpParamDef& find_or_add(std::deque<OpParamDef>& v, const char* name) {
  std::string n = name ? name : "";
  for (auto& p : v)
    if (kgen::host::Access::impl(p).name == n) return p;
  v.emplace_back(name);
  return v.back();
}
OpParamDef& OpAICoreConfig::Input(const char* name) { return find_or_add(impl_->inputs, name); }
OpParamDef& OpAICoreConfig::Output(const char* name) { return find_or_add(impl_->outputs, name); }
OpAICoreConfig& OpAICoreConfig::DynamicCompileStaticFlag(bool) { return *this; }
OpAICoreConfig& OpAICoreConfig::DynamicFormatFlag(bool) { return *this; }
OpAICoreConfig& OpAICoreConfig::DynamicRankSupportFlag(bool) { return *this; }
OpAICoreConfig& OpAICoreConfig::DynamicShapeSupportFlag(bool) { return *this; }
OpAICoreConfig& OpAICoreConfig::NeedCheckSupportFlag(bool) { return *this; }
OpAICoreConfig& OpAICoreConfig::PrecisionReduceFlag(bool) { return *this; }
OpAICoreConfig& OpAICoreConfig::ExtendCfgInfo(const char*, const char*) { return *this; }

// ----------------------------------------------------------------------------------------------- OpAICoreDef
OpAICoreDef::OpAICoreDef() : impl_(new OpAICoreDefImpl) {}
OpAICoreDef::OpAICoreDef(const OpAICoreDef& d) : impl_(new OpAICoreDefImpl(*d.impl_)) {}
OpAICoreDef::~OpAICoreDef() { delete impl_; }
OpAICoreDef& OpAICoreDef::operator=(const OpAICoreDef& d) {
  if (this != &d) *impl_ = *d.impl_;
  return *this;
}
OpAICoreDef& OpAICoreDef::SetTiling(gert::OpImplRegisterV2::TilingKernelFunc func) {
  impl_->tiling = func;
  return *this;
}
OpAICoreDef& OpAICoreDef::SetCheckSupport(optiling::OP_CHECK_FUNC) { return *this; }
OpAICoreDef& OpAICoreDef::SetOpSelectFormat(optiling::OP_CHECK_FUNC) { return *this; }
OpAICoreDef& OpAICoreDef::SetOpSupportInfo(optiling::OP_CHECK_FUNC) { return *this; }
OpAICoreDef& OpAICoreDef::SetOpSpecInfo(optiling::OP_CHECK_FUNC) { return *this; }
OpAICoreDef& OpAICoreDef::SetParamGeneralize(optiling::PARAM_GENERALIZE_FUNC) { return *this; }
OpAICoreDef& OpAICoreDef::AddConfig(const char* soc) {
  OpAICoreConfig cfg;
  return AddConfig(soc, cfg);
}
OpAICoreDef& OpAICoreDef::AddConfig(const char* soc, OpAICoreConfig& aicore_config) {
  std::string s = soc ? soc : "";
  for (auto& c : impl_->configs)
    if (c.first == s) {
      c.second = aicore_config;
      return *this;
    }
  impl_->configs.emplace_back(s, aicore_config);
  return *this;
}

// ----------------------------------------------------------------------------------------------------- OpDef
OpDef::OpDef(const char* type) : impl_(new OpDefImpl) { impl_->type = type ? type : ""; }
OpDef::OpDef(const OpDef& d) : impl_(new OpDefImpl(*d.impl_)) {}
OpDef::~OpDef() { delete impl_; }
OpDef& OpDef::operator=(const OpDef& d) {
  if (this != &d) *impl_ = *d.impl_;
  return *this;
}
OpParamDef& OpDef::Input(const char* name) { return find_or_add(impl_->inputs, name); }
OpParamDef& OpDef::Output(const char* name) { return find_or_add(impl_->outputs, name); }
OpAttrDef& OpDef::Attr(const char* name) {
  std::string n = name ? name : "";
  for (auto& a : impl_->attrs)
    if (kgen::host::Access::impl(a).name == n) return a;
  impl_->attrs.emplace_back(name);
  return impl_->attrs.back();
}
OpDef& OpDef::Comment(CommentSection, const char*) { return *this; }
OpDef& OpDef::SetInferShape(gert::OpImplRegisterV2::InferShapeKernelFunc func) {
  impl_->infer_shape = func;
  return *this;
}
OpDef& OpDef::SetInferShapeRange(gert::OpImplRegisterV2::InferShapeRangeKernelFunc) { return *this; }
OpDef& OpDef::SetInferDataType(gert::OpImplRegisterV2::InferDataTypeKernelFunc func) {
  impl_->infer_dtype = func;
  return *this;
}
OpAICoreDef& OpDef::AICore(void) { return impl_->aicore; }
OpDef& OpDef::FormatMatchMode(FormatCheckOption) { return *this; }
OpDef& OpDef::EnableFallBack(void) { return *this; }
}  // namespace ops

// ------------------------------------------------------------------------------------------------- registry
namespace kgen::host {
namespace {
std::mutex& reg_mutex() {
  static std::mutex m;
  return m;
}
std::deque<OpEntry>& registry() {
  static std::deque<OpEntry> r;
  return r;
}

ParamInfo param_info(const ops::OpParamDef& p) {
  const auto& im = Access::impl(p);
  ParamInfo pi;
  pi.name = im.name;
  pi.kind = im.type == ops::OPTIONAL ? ParamKind::Optional : im.type == ops::DYNAMIC ? ParamKind::Dynamic
                                                                                      : ParamKind::Required;
  pi.dtypes = im.dtypes;
  pi.formats = im.formats;
  pi.unknown_shape_formats = im.unknown_shape_formats;
  pi.value_depend = im.value_depend;
  pi.scalar = im.scalar;
  pi.scalar_list = im.scalar_list;
  return pi;
}

// Expands DataTypeList/FormatList params and missing formats to the columns of the non-list params: a list param
// with k values multiplies the columns by k (CANN's full permutation); formats default to FORMAT_ND.
void expand_columns(std::vector<ops::OpParamDef*>& all, std::vector<ParamInfo*>& infos) {
  size_t cols = 1;
  for (size_t i = 0; i < all.size(); ++i) {
    const auto& im = Access::impl(*all[i]);
    if (!im.dtype_list && !im.dtypes.empty()) cols = std::max(cols, im.dtypes.size());
  }
  for (size_t i = 0; i < all.size(); ++i) {
    const auto& im = Access::impl(*all[i]);
    if (!im.dtype_list || im.dtypes.empty()) continue;
    size_t k = im.dtypes.size();
    // every other param's columns repeat k times; this one takes value j in block j
    for (size_t q = 0; q < all.size(); ++q) {
      auto& pi = *infos[q];
      if (q == i) continue;   // (an earlier list param already has `cols` columns, a later one is redone below)
      std::vector<int> d, f;
      for (size_t j = 0; j < k; ++j)
        for (size_t c = 0; c < cols; ++c) {
          d.push_back(pi.dtypes.empty() ? -1 : pi.dtypes[std::min(c, pi.dtypes.size() - 1)]);
          if (!pi.formats.empty()) f.push_back(pi.formats[std::min(c, pi.formats.size() - 1)]);
        }
      if (!pi.dtypes.empty()) pi.dtypes = d;
      if (!pi.formats.empty()) pi.formats = f;
    }
    auto& me = *infos[i];
    std::vector<int> d;
    for (size_t j = 0; j < k; ++j)
      for (size_t c = 0; c < cols; ++c) d.push_back(im.dtypes[j]);
    me.dtypes = d;
    if (!me.formats.empty()) {
      std::vector<int> f;
      for (size_t j = 0; j < k; ++j)
        for (size_t c = 0; c < cols; ++c) f.push_back(me.formats[std::min(c, me.formats.size() - 1)]);
      me.formats = f;
    }
    cols *= k;
  }
  for (size_t i = 0; i < all.size(); ++i) {
    const auto& im = Access::impl(*all[i]);
    auto& pi = *infos[i];
    if (pi.formats.empty()) pi.formats.assign(cols, 2 /* FORMAT_ND */);
    else if (im.format_list || pi.formats.size() == 1) pi.formats.assign(cols, pi.formats[0]);
    if (pi.dtypes.size() == 1 && cols > 1) pi.dtypes.assign(cols, pi.dtypes[0]);
  }
}

std::string& target_soc() {
  static std::string soc;
  return soc;
}

// AddConfig's name for kgen's SoC: "Ascend910B2" -> "ascend910b", "Ascend310P3" -> "ascend310p".
std::string config_name(const std::string& soc) {
  std::string n;
  for (char ch : soc) n += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  while (!n.empty() && std::isdigit(static_cast<unsigned char>(n.back()))) n.pop_back();
  return n;
}

OpEntry make_entry(ops::OpDef& def) {
  auto& im = Access::impl(def);
  // The AddConfig of the target SoC's family redefines the params it declares and keeps the OpDef's others (CANN's
  // prototype guide: an OpAICoreConfig's params override the OpDef's for that SoC; NPUKernelBench's GroupNormSwish
  // adds bfloat16 for ascend910b only there). Any other config's params fill only those left without dtypes.
  std::string own;
  {
    std::lock_guard<std::mutex> lock(reg_mutex());
    own = config_name(target_soc());
  }
  for (auto& c : Access::impl(im.aicore).configs) {
    auto& ci = Access::impl(c.second);
    const bool for_target = !own.empty() && c.first == own;
    for (int side = 0; side < 2; ++side) {
      auto& from = side ? ci.outputs : ci.inputs;
      auto& to = side ? im.outputs : im.inputs;
      for (auto& p : from) {
        std::string n = Access::impl(p).name;
        bool found = false;
        for (auto& q : to)
          if (Access::impl(q).name == n) {
            found = true;
            if (for_target || Access::impl(q).dtypes.empty()) q = p;
          }
        if (!found) to.push_back(p);
      }
    }
  }
  OpEntry e;
  e.info.type = im.type;
  std::vector<ops::OpParamDef*> all;
  for (auto& p : im.inputs) {
    e.info.inputs.push_back(param_info(p));
    all.push_back(&p);
  }
  for (auto& p : im.outputs) {
    e.info.outputs.push_back(param_info(p));
    all.push_back(&p);
  }
  std::vector<ParamInfo*> infos;
  for (auto& p : e.info.inputs) infos.push_back(&p);
  for (auto& p : e.info.outputs) infos.push_back(&p);
  expand_columns(all, infos);
  for (auto& a : im.attrs) {
    const auto& ai = Access::impl(a);
    AttrInfo info;
    info.name = ai.name;
    info.required = ai.required;
    info.value = ai.value;
    e.info.attrs.push_back(info);
  }
  for (auto& c : Access::impl(im.aicore).configs) e.info.configs.push_back(c.first);
  e.infer_shape = im.infer_shape;
  e.infer_dtype = im.infer_dtype;
  e.tiling = Access::impl(im.aicore).tiling;
  e.info.has_tiling = e.tiling != nullptr;
  e.info.has_infer_shape = e.infer_shape != nullptr;
  e.info.has_infer_dtype = e.infer_dtype != nullptr;
  return e;
}
}  // namespace

void set_target_soc(const std::string& soc) {
  std::lock_guard<std::mutex> lock(reg_mutex());
  target_soc() = soc;
}

std::vector<OpInfo> registered_ops() {
  std::lock_guard<std::mutex> lock(reg_mutex());
  std::vector<OpInfo> out;
  for (auto& e : registry()) {
    merge_impl(e);
    out.push_back(e.info);
  }
  return out;
}

const OpEntry* find_op(const std::string& type) {
  std::lock_guard<std::mutex> lock(reg_mutex());
  for (auto& e : registry())
    if (e.info.type == type) {
      merge_impl(e);   // IMPL_OP registrations may come from any file of the library, in any order
      return &e;
    }
  return nullptr;
}
}  // namespace kgen::host

namespace ops {
int OpDefFactory::OpDefRegister(const char* name, OpDefCreator func) {
  using namespace kgen::host;
  std::string type = name ? name : "";
  try {
    OpDef def = func(name);
    OpEntry e = make_entry(def);
    std::lock_guard<std::mutex> lock(reg_mutex());
    for (auto& old : registry())
      if (old.info.type == type) {
        old = e;   // a later library defines the op again: the newest definition wins
        return 0;
      }
    registry().push_back(e);
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "kgen: error[op-def] OP_ADD(%s): the OpDef constructor threw: %s\n", type.c_str(), ex.what());
  } catch (...) {
    std::fprintf(stderr, "kgen: error[op-def] OP_ADD(%s): the OpDef constructor threw an exception\n", type.c_str());
  }
  return 0;
}
}  // namespace ops
