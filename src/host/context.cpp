// The gert contexts of one call (InferShape, InferDataType, TilingFunc) built from kgen::host::OpCall, and the
// op_host.h entry points infer() and run_tiling().
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "host/host_internal.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace kgen::host {
struct CallState {
  const OpCall* call = nullptr;
  const OpEntry* op = nullptr;
  // tensors by instance (op_host.h), and the instances of each IR param (none: an absent optional input)
  std::vector<std::vector<int>> in_inst, out_inst;
  std::vector<gert::StorageShape> in_shapes, out_shapes;
  std::vector<gert::Shape> in_plain, out_plain;
  std::vector<gert::Tensor> in_tensors;
  std::vector<gert::CompileTimeTensorDesc> in_desc, out_desc;
  std::vector<ge::DataType> in_dt, out_dt;
  std::vector<bool> out_dt_set;
  // attributes
  std::vector<std::vector<uint64_t>> attr_bufs;   // 8-byte aligned storage
  std::vector<const void*> attr_ptrs;
  std::unique_ptr<gert::RuntimeAttrs> attrs;
  // tiling outputs
  std::unique_ptr<gert::TilingData> tiling;
  std::vector<uint64_t> workspace_buf;
  gert::ContinuousVector* workspace = nullptr;
  uint64_t tiling_key = 0;
  bool tiling_key_set = false;
  uint32_t block_dim = 0;
  bool block_dim_set = false;
  uint32_t schedule_mode = 0;
  int32_t tiling_cond = -1;
  bool atomic = false;
  fe::PlatFormInfos* platform = nullptr;
  void* compile_info = nullptr;   // what the op's TilingParse filled, during its TilingFunc
  // the node as GetComputeNodeInfo() describes it: the instances of each IR input (in_inst), filled on first use
  gert::ComputeNodeInfo node;
  std::vector<gert::AnchorInstanceInfo> anchors;
  // InferShapeRangeContext: static shapes, so each range is [shape, shape]; built on first use
  std::vector<gert::Range<gert::Shape>> in_ranges, out_ranges;
};

namespace {
constexpr size_t kMaxWorkspaces = 64;

void* attr_storage(CallState& st, size_t bytes) {
  st.attr_bufs.emplace_back((bytes + 7) / 8 + 1, 0);
  return st.attr_bufs.back().data();
}
template <class T, class V>
const void* list_attr(CallState& st, const std::vector<V>& v) {
  void* buf = attr_storage(st, Access::cv_bytes(v.size(), sizeof(T)));
  Access::cv_init(buf, v.size(), v.size());
  T* data = static_cast<T*>(static_cast<gert::ContinuousVector*>(buf)->MutableData());
  for (size_t i = 0; i < v.size(); ++i) data[i] = static_cast<T>(v[i]);
  return buf;
}
const void* attr_value(CallState& st, const AttrValue& a) {
  if (a.type == "int") {
    auto* p = static_cast<int64_t*>(attr_storage(st, 8));
    *p = a.i;
    return p;
  }
  if (a.type == "float") {
    auto* p = static_cast<float*>(attr_storage(st, 8));
    *p = static_cast<float>(a.f);
    return p;
  }
  if (a.type == "bool") {
    auto* p = static_cast<bool*>(attr_storage(st, 8));
    *p = a.b;
    return p;
  }
  if (a.type == "str") {
    auto* p = static_cast<char*>(attr_storage(st, a.s.size() + 1));
    std::memcpy(p, a.s.c_str(), a.s.size() + 1);
    return p;
  }
  if (a.type == "list_int") return list_attr<int64_t>(st, a.ints);
  if (a.type == "list_float") return list_attr<float>(st, a.floats);
  if (a.type == "list_bool") return list_attr<bool>(st, a.bools);
  if (a.type == "list_list_int") {
    size_t n = a.int_lists.size(), total = Access::cvv_header(n);
    std::vector<size_t> offs;
    for (auto& l : a.int_lists) {
      total = (total + 7) / 8 * 8;
      offs.push_back(total);
      total += Access::cv_bytes(l.size(), sizeof(int64_t));
    }
    auto* base = static_cast<uint8_t*>(attr_storage(st, total));
    Access::cvv_init(base, n);
    auto* off_tab = reinterpret_cast<size_t*>(base + Access::cvv_header(0));
    for (size_t i = 0; i < n; ++i) {
      off_tab[i] = offs[i];
      Access::cv_init(base + offs[i], a.int_lists[i].size(), a.int_lists[i].size());
      auto* d = static_cast<int64_t*>(reinterpret_cast<gert::ContinuousVector*>(base + offs[i])->MutableData());
      for (size_t j = 0; j < a.int_lists[i].size(); ++j) d[j] = a.int_lists[i][j];
    }
    return base;
  }
  return nullptr;
}

gert::StorageShape storage_of(const std::vector<int64_t>& dims) {
  gert::StorageShape s;
  for (int64_t d : dims) {
    s.MutableOriginShape().AppendDim(d);
    s.MutableStorageShape().AppendDim(d);
  }
  return s;
}

// The instances of one IR param: a DYNAMIC param's tensors, else the param itself (none when absent).
std::vector<const TensorArg*> instances(const TensorArg& t) {
  std::vector<const TensorArg*> r;
  if (t.is_list)
    for (const TensorArg& x : t.items) r.push_back(&x);
  else if (t.present)
    r.push_back(&t);
  return r;
}
gert::CompileTimeTensorDesc desc_of(const TensorArg& t) {
  gert::CompileTimeTensorDesc d;
  d.SetDataType(ge::DataType(t.dtype));
  d.SetOriginFormat(ge::Format(t.format));
  d.SetStorageFormat(ge::Format(t.format));
  return d;
}

// Builds everything but the tiling outputs; returns "" or why the call does not fit the op.
std::string build(CallState& st, const OpCall& call) {
  st.call = &call;
  st.op = find_op(call.op);
  if (!st.op) return "no operator " + call.op + " is registered (OP_ADD(" + call.op + ") in the op_host library)";
  const OpInfo& info = st.op->info;
  std::vector<const TensorArg*> ins;
  std::vector<bool> ins_value_depend;
  for (size_t i = 0; i < info.inputs.size(); ++i) {
    st.in_inst.emplace_back();
    if (i >= call.inputs.size()) continue;
    for (const TensorArg* t : instances(call.inputs[i])) {
      st.in_inst.back().push_back(int(ins.size()));
      ins.push_back(t);
      ins_value_depend.push_back(info.inputs[i].value_depend);
    }
  }
  for (const TensorArg* t : ins) {
    st.in_shapes.push_back(storage_of(t->shape));
    st.in_plain.push_back(st.in_shapes.back().GetStorageShape());
    st.in_desc.push_back(desc_of(*t));
    st.in_dt.push_back(ge::DataType(t->dtype));
  }
  st.in_tensors.resize(ins.size());
  for (size_t k = 0; k < ins.size(); ++k) {
    const TensorArg& t = *ins[k];
    int64_t n = st.in_shapes[k].GetStorageShape().GetShapeSize();
    // On the chip the host sees an input's data only when the OpDef declares it ValueDepend (aclnn copies it to
    // the host for TilingFunc / InferShape); any other input lives in device memory, out of the host's reach.
    const void* data = ins_value_depend[k] ? t.data : nullptr;
    size_t bytes = data ? size_t(n < 0 ? 0 : n) * dtype_size(t.dtype) : 0;
    Access::set_tensor(st.in_tensors[k], st.in_shapes[k], ge::Format(t.format), ge::DataType(t.dtype), data, bytes);
  }
  for (size_t i = 0; i < info.outputs.size(); ++i) {
    st.out_inst.emplace_back();
    TensorArg none;
    const TensorArg& param = i < call.outputs.size() ? call.outputs[i] : none;
    for (const TensorArg* t : instances(param)) {
      st.out_inst.back().push_back(int(st.out_shapes.size()));
      st.out_shapes.push_back(storage_of(t->shape));
      st.out_plain.push_back(gert::Shape());
      st.out_desc.push_back(desc_of(*t));
      st.out_dt.push_back(ge::DT_UNDEFINED);
      st.out_dt_set.push_back(false);
    }
  }
  for (size_t i = 0; i < info.attrs.size(); ++i) {
    AttrValue v = i < call.attrs.size() ? call.attrs[i] : info.attrs[i].value;
    if (v.type.empty()) v.type = info.attrs[i].value.type;
    st.attr_ptrs.push_back(attr_value(st, v));
  }
  st.attrs = Access::new_attrs(st.attr_ptrs.data(), st.attr_ptrs.size());
  std::string soc = call.soc.empty() ? "Ascend910B2" : call.soc;
  st.platform = kgen::rt::platform_infos(soc.c_str());
  return "";
}

template <class F>
std::string guarded(F&& f, uint32_t& status) {
  try {
    status = f();
    return "";
  } catch (const std::exception& e) {
    return std::string("threw an exception: ") + e.what();
  } catch (...) {
    return "threw an exception";
  }
}
std::string status_text(uint32_t s) {
  if (s == ge::GRAPH_FAILED) return "ge::GRAPH_FAILED";
  if (s == ge::GRAPH_PARAM_INVALID) return "ge::GRAPH_PARAM_INVALID";
  return std::to_string(s);
}
const gert::Tensor* tensor_at(const CallState& st, int inst) {
  return inst >= 0 && size_t(inst) < st.in_tensors.size() ? &st.in_tensors[inst] : nullptr;
}
int ir_inst(const CallState& st, size_t ir, size_t rel) {
  if (ir >= st.in_inst.size() || rel >= st.in_inst[ir].size()) return -1;
  return st.in_inst[ir][rel];
}
}  // namespace

InferResult infer(const OpCall& call) {
  InferResult r;
  CallState st;
  std::string why = build(st, call);
  if (!why.empty()) {
    r.message = why;
    return r;
  }
  if (!st.op->infer_shape) {
    r.message = "the OpDef of " + call.op + " sets no InferShape function (this->SetInferShape(...))";
    return r;
  }
  gert::InferShapeContext sc;
  Access::set_state(sc, &st);
  uint32_t status = 0;
  std::string err = guarded([&] { return st.op->infer_shape(&sc); }, status);
  if (!err.empty()) {
    r.message = "InferShape " + err;
    return r;
  }
  if (status != ge::GRAPH_SUCCESS) {
    r.message = "InferShape returned " + status_text(status);
    return r;
  }
  for (auto& s : st.out_plain) {
    std::vector<int64_t> dims;
    for (size_t i = 0; i < s.GetDimNum(); ++i) dims.push_back(s.GetDim(i));
    r.shapes.push_back(dims);
  }
  r.dtypes.assign(st.out_dt.size(), -1);
  if (st.op->infer_dtype) {
    gert::InferDataTypeContext dc;
    Access::set_state(dc, &st);
    err = guarded([&] { return st.op->infer_dtype(&dc); }, status);
    if (!err.empty()) {
      r.message = "InferDataType " + err;
      return r;
    }
    if (status != ge::GRAPH_SUCCESS) {
      r.message = "InferDataType returned " + status_text(status);
      return r;
    }
    for (size_t i = 0; i < st.out_dt.size(); ++i)
      if (st.out_dt_set[i]) r.dtypes[i] = int(st.out_dt[i]);
  }
  r.ok = true;
  return r;
}

TilingResult run_tiling(const OpCall& call, size_t capacity) {
  TilingResult r;
  CallState st;
  std::string why = build(st, call);
  r.capacity = capacity;
  r.tiling.assign(capacity, 0);
  if (!why.empty()) {
    r.message = why;
    return r;
  }
  if (!st.op->tiling) {
    r.message = "the OpDef of " + call.op + " sets no tiling function (this->AICore().SetTiling(...))";
    return r;
  }
  std::vector<uint64_t> tbuf((capacity + 7) / 8 + 1, 0);
  st.tiling = Access::new_tiling_data(tbuf.data(), capacity);
  st.workspace_buf.assign(Access::cv_bytes(kMaxWorkspaces, sizeof(size_t)) / 8 + 1, 0);
  Access::cv_init(st.workspace_buf.data(), kMaxWorkspaces, 0);
  st.workspace = reinterpret_cast<gert::ContinuousVector*>(st.workspace_buf.data());
  // TilingParse first, on a fresh compile info (CANN runs it once per compiled op; its result is the same).
  struct CompileInfo {
    const OpEntry* op;
    void* p;
    ~CompileInfo() {
      if (p) op->free_compile_info(p);
    }
  } ci{st.op, nullptr};
  if (st.op->tiling_parse) {
    ci.p = st.op->make_compile_info();
    st.compile_info = ci.p;
    gert::TilingParseContext pc;
    Access::set_state(pc, &st);
    uint32_t parse_status = 0;
    std::string perr = guarded([&] { return st.op->tiling_parse(&pc); }, parse_status);
    if (!perr.empty() || parse_status != ge::GRAPH_SUCCESS) {
      r.message = perr.empty() ? "TilingParse returned " + status_text(parse_status) : "TilingParse " + perr;
      r.status = int(parse_status);
      return r;
    }
  }
  gert::TilingContext tc;
  Access::set_state(tc, &st);
  int failures_before = kgen::tiling::save_failures();
  uint32_t status = 0;
  std::string err = guarded([&] { return st.op->tiling(&tc); }, status);
  r.status = int(status);
  r.save_failures = kgen::tiling::save_failures() - failures_before;
  std::memcpy(r.tiling.data(), tbuf.data(), capacity);
  r.data_size = st.tiling->GetDataSize();
  r.block_dim = st.block_dim;
  r.block_dim_set = st.block_dim_set;
  r.tiling_key = st.tiling_key;
  r.tiling_key_set = st.tiling_key_set;
  r.schedule_mode = st.schedule_mode;
  const size_t* ws = static_cast<const size_t*>(st.workspace->GetData());
  r.workspace_sizes.assign(ws, ws + st.workspace->GetSize());
  if (!err.empty()) {
    r.message = "TilingFunc " + err;
    return r;
  }
  if (status != ge::GRAPH_SUCCESS) {
    r.message = "TilingFunc returned " + status_text(status);
    return r;
  }
  r.ok = true;
  return r;
}
}  // namespace kgen::host

// ------------------------------------------------------------------------------------------- gert accessors
using kgen::host::Access;
using kgen::host::CallState;
namespace gert {
size_t RuntimeAttrs::GetAttrNum() const { return num_; }
const void* RuntimeAttrs::GetPointerByIndex(size_t index) const { return index < num_ ? ptrs_[index] : nullptr; }

const CompileTimeTensorDesc* ExtendedKernelContext::GetInputDesc(const size_t index) const {
  const CallState& st = *kgen_state_;
  return index < st.in_desc.size() ? &st.in_desc[index] : nullptr;
}
const CompileTimeTensorDesc* ExtendedKernelContext::GetOptionalInputDesc(const size_t ir_index) const {
  return GetDynamicInputDesc(ir_index, 0);
}
const CompileTimeTensorDesc* ExtendedKernelContext::GetRequiredInputDesc(const size_t ir_index) const {
  return GetDynamicInputDesc(ir_index, 0);
}
const CompileTimeTensorDesc* ExtendedKernelContext::GetDynamicInputDesc(const size_t ir_index,
                                                                         const size_t relative_index) const {
  int k = kgen::host::ir_inst(*kgen_state_, ir_index, relative_index);
  return k < 0 ? nullptr : &kgen_state_->in_desc[k];
}
const CompileTimeTensorDesc* ExtendedKernelContext::GetOutputDesc(const size_t index) const {
  const CallState& st = *kgen_state_;
  return index < st.out_desc.size() ? &st.out_desc[index] : nullptr;
}
size_t ExtendedKernelContext::GetComputeNodeInputNum() const { return kgen_state_->in_shapes.size(); }
size_t ExtendedKernelContext::GetComputeNodeOutputNum() const { return kgen_state_->out_shapes.size(); }
const RuntimeAttrs* ExtendedKernelContext::GetAttrs() const { return kgen_state_->attrs.get(); }
const ge::char_t* ExtendedKernelContext::GetNodeType() const { return kgen_state_->op->info.type.c_str(); }
const ge::char_t* ExtendedKernelContext::GetNodeName() const { return kgen_state_->op->info.type.c_str(); }
const ComputeNodeInfo* ExtendedKernelContext::GetComputeNodeInfo() const {
  CallState& st = *kgen_state_;
  if (st.node.kgen_state_ == nullptr) {
    st.node.kgen_state_ = &st;
    uint32_t next = 0;   // an IR input's instances are consecutive; an absent optional one starts where it would be
    for (const std::vector<int>& inst : st.in_inst) {
      const uint32_t start = inst.empty() ? next : static_cast<uint32_t>(inst.front());
      st.anchors.emplace_back(start, static_cast<uint32_t>(inst.size()));
      next = start + static_cast<uint32_t>(inst.size());
    }
  }
  return &st.node;
}

// ComputeNodeInfo
const ge::char_t* ComputeNodeInfo::GetNodeType() const { return kgen_state_->op->info.type.c_str(); }
const ge::char_t* ComputeNodeInfo::GetNodeName() const { return kgen_state_->op->info.type.c_str(); }
size_t ComputeNodeInfo::GetIrInputsNum() const { return kgen_state_->in_inst.size(); }
size_t ComputeNodeInfo::GetInputsNum() const { return kgen_state_->in_shapes.size(); }
size_t ComputeNodeInfo::GetOutputsNum() const { return kgen_state_->out_shapes.size(); }
const AnchorInstanceInfo* ComputeNodeInfo::GetInputInstanceInfo(const size_t ir_index) const {
  return ir_index < kgen_state_->anchors.size() ? &kgen_state_->anchors[ir_index] : nullptr;
}
const CompileTimeTensorDesc* ComputeNodeInfo::GetInputTdInfo(const size_t index) const {
  return index < kgen_state_->in_desc.size() ? &kgen_state_->in_desc[index] : nullptr;
}
const CompileTimeTensorDesc* ComputeNodeInfo::GetOutputTdInfo(const size_t index) const {
  return index < kgen_state_->out_desc.size() ? &kgen_state_->out_desc[index] : nullptr;
}
const RuntimeAttrs* ComputeNodeInfo::GetAttrs() const { return kgen_state_->attrs.get(); }

// TilingContext
const StorageShape* TilingContext::GetInputShape(const size_t index) const {
  return index < kgen_state_->in_shapes.size() ? &kgen_state_->in_shapes[index] : nullptr;
}
const Tensor* TilingContext::GetInputTensor(const size_t index) const {
  return index < kgen_state_->in_tensors.size() ? &kgen_state_->in_tensors[index] : nullptr;
}
const Tensor* TilingContext::GetOptionalInputTensor(const size_t ir_index) const {
  return GetDynamicInputTensor(ir_index, 0);
}
const Tensor* TilingContext::GetDynamicInputTensor(const size_t ir_index, const size_t relative_index) const {
  return kgen::host::tensor_at(*kgen_state_, kgen::host::ir_inst(*kgen_state_, ir_index, relative_index));
}
const StorageShape* TilingContext::GetOptionalInputShape(const size_t ir_index) const {
  return GetDynamicInputShape(ir_index, 0);
}
const StorageShape* TilingContext::GetDynamicInputShape(const size_t ir_index, const size_t relative_index) const {
  int k = kgen::host::ir_inst(*kgen_state_, ir_index, relative_index);
  return k < 0 ? nullptr : &kgen_state_->in_shapes[k];
}
const StorageShape* TilingContext::GetOutputShape(const size_t index) const {
  return index < kgen_state_->out_shapes.size() ? &kgen_state_->out_shapes[index] : nullptr;
}
ge::graphStatus TilingContext::SetTilingKey(const uint64_t tiling_key) {
  kgen_state_->tiling_key = tiling_key;
  kgen_state_->tiling_key_set = true;
  return ge::GRAPH_SUCCESS;
}
uint64_t TilingContext::GetTilingKey() const { return kgen_state_->tiling_key; }
ge::graphStatus TilingContext::SetScheduleMode(const uint32_t schedule_mode) {
  kgen_state_->schedule_mode = schedule_mode;
  return ge::GRAPH_SUCCESS;
}
uint32_t TilingContext::GetScheduleMode() const { return kgen_state_->schedule_mode; }
ge::graphStatus TilingContext::SetBlockDim(const uint32_t block_dim) {
  kgen_state_->block_dim = block_dim;
  kgen_state_->block_dim_set = true;
  return ge::GRAPH_SUCCESS;
}
uint32_t TilingContext::GetBlockDim() const { return kgen_state_->block_dim; }
ge::graphStatus TilingContext::SetTilingCond(int32_t tiling_cond) {
  kgen_state_->tiling_cond = tiling_cond;
  return ge::GRAPH_SUCCESS;
}
int32_t TilingContext::GetTilingCond() const { return kgen_state_->tiling_cond; }
ge::graphStatus TilingContext::SetNeedAtomic(const bool atomic) {
  kgen_state_->atomic = atomic;
  return ge::GRAPH_SUCCESS;
}
bool TilingContext::NeedAtomic() const { return kgen_state_->atomic; }
TilingData* TilingContext::GetRawTilingData() { return kgen_state_->tiling.get(); }
size_t* TilingContext::GetWorkspaceSizes(const size_t workspace_count) {
  if (kgen_state_->workspace->SetSize(workspace_count) != ge::GRAPH_SUCCESS) return nullptr;
  return static_cast<size_t*>(kgen_state_->workspace->MutableData());
}
size_t TilingContext::GetWorkspaceNum() const { return kgen_state_->workspace->GetSize(); }
fe::PlatFormInfos* TilingContext::GetPlatformInfo() const { return kgen_state_->platform; }
const void* TilingContext::GetCompileInfo() const { return kgen_state_->compile_info; }
void* TilingParseContext::GetCompiledInfoRaw() { return kgen_state_->compile_info; }
fe::PlatFormInfos* TilingParseContext::GetPlatformInfo() const { return kgen_state_->platform; }
const char* TilingParseContext::GetCompiledJson() const { return "{}"; }
int32_t TilingContext::GetDeterministic() const { return 0; }

// InferShapeContext
const Shape* InferShapeContext::GetInputShape(const size_t index) const {
  return index < kgen_state_->in_plain.size() ? &kgen_state_->in_plain[index] : nullptr;
}
const Tensor* InferShapeContext::GetInputTensor(const size_t index) const {
  return index < kgen_state_->in_tensors.size() ? &kgen_state_->in_tensors[index] : nullptr;
}
const Tensor* InferShapeContext::GetOptionalInputTensor(const size_t ir_index) const {
  return GetDynamicInputTensor(ir_index, 0);
}
const Shape* InferShapeContext::GetOptionalInputShape(const size_t ir_index) const {
  return GetDynamicInputShape(ir_index, 0);
}
const Shape* InferShapeContext::GetDynamicInputShape(const size_t ir_index, const size_t relative_index) const {
  int k = kgen::host::ir_inst(*kgen_state_, ir_index, relative_index);
  return k < 0 ? nullptr : &kgen_state_->in_plain[k];
}
const Tensor* InferShapeContext::GetDynamicInputTensor(const size_t ir_index, const size_t relative_index) const {
  return kgen::host::tensor_at(*kgen_state_, kgen::host::ir_inst(*kgen_state_, ir_index, relative_index));
}
const Tensor* InferShapeContext::GetRequiredInputTensor(const size_t ir_index) const {
  return GetDynamicInputTensor(ir_index, 0);
}
const Shape* InferShapeContext::GetRequiredInputShape(const size_t ir_index) const {
  return GetDynamicInputShape(ir_index, 0);
}
Shape* InferShapeContext::GetOutputShape(const size_t index) {
  return index < kgen_state_->out_plain.size() ? &kgen_state_->out_plain[index] : nullptr;
}

// InferShapeRangeContext
namespace {
void build_ranges(kgen::host::CallState& st) {
  if (st.in_ranges.size() == st.in_plain.size() && st.out_ranges.size() == st.out_plain.size()) return;
  st.in_ranges.clear();
  st.out_ranges.clear();
  for (auto& s : st.in_plain) st.in_ranges.emplace_back(&s);
  for (auto& s : st.out_plain) st.out_ranges.emplace_back(&s);
}
}  // namespace
const Range<Shape>* InferShapeRangeContext::GetInputShapeRange(const size_t index) const {
  build_ranges(*kgen_state_);
  return index < kgen_state_->in_ranges.size() ? &kgen_state_->in_ranges[index] : nullptr;
}
const Range<Shape>* InferShapeRangeContext::GetOptionalInputShapeRange(const size_t ir_index) const {
  return GetDynamicInputShapeRange(ir_index, 0);
}
const Range<Shape>* InferShapeRangeContext::GetDynamicInputShapeRange(const size_t ir_index,
                                                                      const size_t relative_index) const {
  build_ranges(*kgen_state_);
  const int k = kgen::host::ir_inst(*kgen_state_, ir_index, relative_index);
  return k < 0 ? nullptr : &kgen_state_->in_ranges[k];
}
Range<Shape>* InferShapeRangeContext::GetOutputShapeRange(const size_t index) {
  build_ranges(*kgen_state_);
  return index < kgen_state_->out_ranges.size() ? &kgen_state_->out_ranges[index] : nullptr;
}

// InferDataTypeContext
ge::DataType InferDataTypeContext::GetInputDataType(const size_t index) const {
  return index < kgen_state_->in_dt.size() ? kgen_state_->in_dt[index] : ge::DT_UNDEFINED;
}
ge::DataType InferDataTypeContext::GetOptionalInputDataType(const size_t ir_index) const {
  return GetDynamicInputDataType(ir_index, 0);
}
ge::DataType InferDataTypeContext::GetDynamicInputDataType(const size_t ir_index, const size_t relative_index) const {
  int k = kgen::host::ir_inst(*kgen_state_, ir_index, relative_index);
  return k < 0 ? ge::DT_UNDEFINED : kgen_state_->in_dt[k];
}
ge::DataType InferDataTypeContext::GetRequiredInputDataType(const size_t ir_index) const {
  return GetDynamicInputDataType(ir_index, 0);
}
ge::DataType InferDataTypeContext::GetOutputDataType(const size_t index) const {
  return index < kgen_state_->out_dt.size() ? kgen_state_->out_dt[index] : ge::DT_UNDEFINED;
}
ge::graphStatus InferDataTypeContext::SetOutputDataType(const size_t index, const ge::DataType datatype) {
  if (index >= kgen_state_->out_dt.size()) return ge::GRAPH_FAILED;
  kgen_state_->out_dt[index] = datatype;
  kgen_state_->out_dt_set[index] = true;
  return ge::GRAPH_SUCCESS;
}
}  // namespace gert
