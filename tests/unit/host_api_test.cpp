// The host API of op projects (libkgen_host, src/host/op_host.h): an OpDef registered with OP_ADD, its
// registry entry, InferShape / InferDataType, and TilingFunc runs through CANN's gert contexts (shapes, attrs of
// every type, platform per SoC, block dim / tiling key / workspaces, SaveToBuffer), and the failure paths.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/op_host.h"
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#include "kgen/adv_norm.h"
#include "kernel_operator.h"
#include "sim/testing.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(KgenHostTestTiling)
TILING_DATA_FIELD_DEF(uint32_t, total);
TILING_DATA_FIELD_DEF(int64_t, k);
TILING_DATA_FIELD_DEF(float, alpha);
TILING_DATA_FIELD_DEF(uint32_t, coreNum);
TILING_DATA_FIELD_DEF(uint32_t, ubKb);
TILING_DATA_FIELD_DEF_ARR(int64_t, 3, axes);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(KgenHostTestOp, KgenHostTestTiling)

// What the last TilingFunc saw, for the test to compare.
struct Seen {
  std::string mode, str, node;
  bool flag = false;
  size_t attr_num = 0, list_len = 0, lists = 0, optional_present = 0;
  float f = 0;
  int64_t lli = 0;
  int dt = -1, fmt = -1;
  uint32_t aiv = 0;
  int64_t first_value = 0;
};
static Seen g_seen;

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::RuntimeAttrs* attrs = context->GetAttrs();
  const char* mode = attrs->GetStr(5);
  g_seen.mode = mode ? mode : "";
  if (g_seen.mode == "fail") return ge::GRAPH_FAILED;
  if (g_seen.mode == "throw") throw std::runtime_error("bad shape");
  KgenHostTestTiling tiling;
  uint32_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
  tiling.set_total(total);
  tiling.set_k(*attrs->GetAttrPointer<int64_t>(0));
  tiling.set_alpha(*attrs->GetFloat(1));
  g_seen.flag = *attrs->GetBool(2);
  const gert::TypedContinuousVector<int64_t>* axes = attrs->GetListInt(3);
  g_seen.list_len = axes->GetSize();
  int64_t a[3] = {0, 0, 0};
  for (size_t i = 0; i < axes->GetSize() && i < 3; ++i) a[i] = axes->GetData()[i];
  tiling.set_axes(a);
  g_seen.f = attrs->GetListFloat(4)->GetData()[1];
  const gert::ContinuousVectorVector* ll = attrs->GetListListInt(6);
  g_seen.lists = ll->GetSize();
  g_seen.lli = static_cast<const int64_t*>(ll->Get(1)->GetData())[0];
  g_seen.attr_num = attrs->GetAttrNum();
  g_seen.node = context->GetNodeType();
  g_seen.dt = context->GetInputDesc(0)->GetDataType();
  g_seen.fmt = context->GetInputDesc(0)->GetOriginFormat();
  g_seen.optional_present = context->GetOptionalInputShape(1) != nullptr;
  const gert::Tensor* t = context->GetInputTensor(0);
  g_seen.first_value = t->GetData<float>() ? int64_t(t->GetData<float>()[0]) : -1;
  auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  g_seen.aiv = ascendcPlatform.GetCoreNumAiv();
  uint64_t ub = 0;
  ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  tiling.set_coreNum(ascendcPlatform.GetCoreNum());
  tiling.set_ubKb(uint32_t(ub / 1024));
  context->SetBlockDim(ascendcPlatform.GetCoreNumAiv());
  context->SetTilingKey(g_seen.mode == "key" ? 7 : 1);
  context->SetScheduleMode(1);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  size_t* ws = context->GetWorkspaceSizes(2);
  ws[0] = 1024;
  ws[1] = ascendcPlatform.GetLibApiWorkSpaceSize();
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context) {
  const gert::Shape* x = context->GetInputShape(0);
  gert::Shape* y = context->GetOutputShape(0);
  const int64_t* k = context->GetAttrs()->GetInt(0);
  if (*k < 0) return GRAPH_FAILED;
  y->SetDimNum(x->GetDimNum());
  for (size_t i = 0; i < x->GetDimNum(); ++i) y->SetDim(i, x->GetDim(i) * (i == 0 ? *k : 1));
  return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context) {
  context->SetOutputDataType(0, context->GetInputDataType(0));
  return ge::GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class KgenHostTestOp : public OpDef {
 public:
  explicit KgenHostTestOp(const char* name) : OpDef(name) {
    this->Input("x")
        .ParamType(REQUIRED)
        .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND})
        .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("bias").ParamType(OPTIONAL).DataTypeList({ge::DT_FLOAT}).FormatList({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Attr("k").AttrType(REQUIRED).Int();
    this->Attr("alpha").AttrType(OPTIONAL).Float(0.5f);
    this->Attr("flag").AttrType(OPTIONAL).Bool(true);
    this->Attr("axes").AttrType(OPTIONAL).ListInt({1, 2});
    this->Attr("scales").AttrType(OPTIONAL).ListFloat({1.0f, 2.5f});
    this->Attr("mode").AttrType(OPTIONAL).String("ok");
    this->Attr("pairs").AttrType(OPTIONAL).ListListInt({{1, 2}, {3}});
    this->Attr("mask").AttrType(OPTIONAL).ListBool({true, false});
    this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
    this->AICore().AddConfig("ascend310p");
  }
};
OP_ADD(KgenHostTestOp);

}  // namespace ops

// An OpDef whose second input is ValueDepend (a shape tensor): TilingFunc may read its values, not the first's.
namespace optiling {
static int64_t g_vd_first = 0, g_vd_shape = 0;
static ge::graphStatus ValueDependTiling(gert::TilingContext* context) {
  const gert::Tensor* x = context->GetInputTensor(0);
  const gert::Tensor* shape = context->GetInputTensor(1);
  g_vd_first = x->GetData<float>() ? 1 : 0;
  g_vd_shape = shape->GetData<int64_t>() ? shape->GetData<int64_t>()[0] : -1;
  context->SetBlockDim(1);
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class KgenValueDependOp : public OpDef {
 public:
  explicit KgenValueDependOp(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Input("shape").ParamType(REQUIRED).ValueDepend(REQUIRED).DataType({ge::DT_INT64}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::ValueDependTiling);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(KgenValueDependOp);
}  // namespace ops

namespace {
using namespace kgen::host;

const OpInfo* find(const std::vector<OpInfo>& ops, const std::string& name) {
  for (auto& o : ops)
    if (o.type == name) return &o;
  return nullptr;
}

OpCall make_call(const std::string& mode, const float* data = nullptr) {
  OpCall c;
  c.op = "KgenHostTestOp";
  c.soc = "Ascend910B2";
  TensorArg x;
  x.shape = {4, 8};
  x.dtype = 0;
  x.data = data;
  TensorArg bias;
  bias.present = false;
  c.inputs = {x, bias};
  TensorArg y;
  y.shape = {12, 8};
  c.outputs = {y};
  auto ops = registered_ops();
  for (const auto& a : find(ops, "KgenHostTestOp")->attrs) c.attrs.push_back(a.value);
  c.attrs[0].i = 3;
  c.attrs[5].s = mode;
  return c;
}
}  // namespace

TEST(HostApi, TilingSeesOnlyValueDependInputData) {
  float x[4] = {1, 2, 3, 4};
  int64_t shape[2] = {7, 9};
  OpCall c;
  c.op = "KgenValueDependOp";
  c.soc = "Ascend910B2";
  TensorArg a, b, y;
  a.shape = {4};
  a.dtype = ge::DT_FLOAT;
  a.data = x;
  b.shape = {2};
  b.dtype = ge::DT_INT64;
  b.data = shape;
  y.shape = {4};
  c.inputs = {a, b};
  c.outputs = {y};
  TilingResult r = run_tiling(c, 256);
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(optiling::g_vd_first, 0);   // x's data stays on the device
  EXPECT_EQ(optiling::g_vd_shape, 7);   // the ValueDepend input's values reach the host
}

TEST(HostApi, RegistryDescribesTheOpDef) {
  auto ops = registered_ops();
  const OpInfo* op = find(ops, "KgenHostTestOp");
  ASSERT_NE(op, nullptr);
  ASSERT_EQ(op->inputs.size(), 2u);
  EXPECT_EQ(op->inputs[0].name, "x");
  EXPECT_EQ(op->inputs[0].kind, ParamKind::Required);
  EXPECT_EQ(op->inputs[0].dtypes, (std::vector<int>{ge::DT_FLOAT, ge::DT_FLOAT16}));
  EXPECT_EQ(op->inputs[0].formats, (std::vector<int>{ge::FORMAT_ND, ge::FORMAT_ND}));
  EXPECT_EQ(op->inputs[1].kind, ParamKind::Optional);
  // DataTypeList/FormatList: one value for every column
  EXPECT_EQ(op->inputs[1].dtypes, (std::vector<int>{ge::DT_FLOAT, ge::DT_FLOAT}));
  EXPECT_EQ(op->inputs[1].formats, (std::vector<int>{ge::FORMAT_ND, ge::FORMAT_ND}));
  ASSERT_EQ(op->outputs.size(), 1u);
  EXPECT_EQ(op->outputs[0].name, "y");
  ASSERT_EQ(op->attrs.size(), 8u);
  EXPECT_EQ(op->attrs[0].name, "k");
  EXPECT_TRUE(op->attrs[0].required);
  EXPECT_EQ(op->attrs[0].value.type, "int");
  EXPECT_EQ(op->attrs[1].value.type, "float");
  EXPECT_FLOAT_EQ(float(op->attrs[1].value.f), 0.5f);
  EXPECT_EQ(op->attrs[2].value.type, "bool");
  EXPECT_EQ(op->attrs[3].value.ints, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(op->attrs[4].value.type, "list_float");
  EXPECT_EQ(op->attrs[5].value.s, "ok");
  EXPECT_EQ(op->attrs[6].value.int_lists.size(), 2u);
  EXPECT_EQ(op->attrs[7].value.type, "list_bool");
  EXPECT_EQ(op->configs, (std::vector<std::string>{"ascend910b", "ascend310p"}));
  EXPECT_TRUE(op->has_tiling && op->has_infer_shape && op->has_infer_dtype);
}

// An AddConfig's OpAICoreConfig redefines, for its SoC family, the params it declares; the others stay the OpDef's
// (NPUKernelBench's GroupNormSwish: float16/float in the OpDef, bfloat16 added for ascend910b by the config).
TEST(HostApi, SocConfigRedefinesItsParams) {
  auto def = [](const char* n) -> ops::OpDef {
    ops::OpDef d(n);
    d.Input("x").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT16});
    d.Input("g").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT16});
    d.Output("y").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT16});
    ops::OpAICoreConfig cfg;
    cfg.Input("x").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16});
    cfg.Output("y").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16});
    d.AICore().AddConfig("ascend910b", cfg);
    return d;
  };
  set_target_soc("Ascend910B2");
  ops::OpDefFactory::OpDefRegister("KgenSocConfigOp", def);
  std::vector<OpInfo> ops = registered_ops();
  const OpInfo* op = find(ops, "KgenSocConfigOp");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->inputs[0].dtypes, (std::vector<int>{ge::DT_FLOAT16, ge::DT_BF16}));
  EXPECT_EQ(op->inputs[1].dtypes, (std::vector<int>{ge::DT_FLOAT16, ge::DT_FLOAT16}));   // kept, one per column
  EXPECT_EQ(op->outputs[0].dtypes, (std::vector<int>{ge::DT_FLOAT16, ge::DT_BF16}));
  set_target_soc("Ascend310P3");   // another family: the config does not apply
  ops::OpDefFactory::OpDefRegister("KgenSocConfigOp", def);
  ops = registered_ops();
  op = find(ops, "KgenSocConfigOp");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->inputs[0].dtypes, (std::vector<int>{ge::DT_FLOAT16}));
  set_target_soc("");
}

TEST(HostApi, InferShapeAndDataType) {
  OpCall c = make_call("ok");
  c.inputs[0].dtype = ge::DT_FLOAT16;
  InferResult r = infer(c);
  ASSERT_TRUE(r.ok) << r.message;
  ASSERT_EQ(r.shapes.size(), 1u);
  EXPECT_EQ(r.shapes[0], (std::vector<int64_t>{12, 8}));
  EXPECT_EQ(r.dtypes, (std::vector<int>{ge::DT_FLOAT16}));
  c.attrs[0].i = -1;
  r = infer(c);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("InferShape returned ge::GRAPH_FAILED"), std::string::npos) << r.message;
}

// The tiling bytes a TilingFunc run for `soc` must produce, computed with the same tiling class.
static std::vector<uint8_t> expected_tiling(const char* soc, size_t capacity) {
  auto plat = platform_ascendc::PlatformAscendC(kgen::rt::platform_infos(soc));
  optiling::KgenHostTestTiling t;
  t.set_total(32);
  t.set_k(3);
  t.set_alpha(0.5f);
  t.set_coreNum(plat.GetCoreNum());
  uint64_t ub = 0;
  plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  t.set_ubKb(uint32_t(ub / 1024));
  int64_t a[3] = {1, 2, 0};
  t.set_axes(a);
  std::vector<uint8_t> buf(capacity, 0);
  t.SaveToBuffer(buf.data(), buf.size());
  return buf;
}

TEST(HostApi, TilingReadsShapesAttrsPlatformAndSetsOutputs) {
  float data[32] = {5.0f};
  OpCall c = make_call("ok", data);
  TilingResult r = run_tiling(c, 256);
  ASSERT_TRUE(r.ok) << r.message;
  const auto& seen = optiling::g_seen;
  EXPECT_EQ(seen.node, "KgenHostTestOp");
  EXPECT_EQ(seen.attr_num, 8u);
  EXPECT_TRUE(seen.flag);
  EXPECT_EQ(seen.list_len, 2u);
  EXPECT_FLOAT_EQ(seen.f, 2.5f);
  EXPECT_EQ(seen.lists, 2u);
  EXPECT_EQ(seen.lli, 3);
  EXPECT_EQ(seen.dt, ge::DT_FLOAT);
  EXPECT_EQ(seen.fmt, ge::FORMAT_ND);
  EXPECT_EQ(seen.optional_present, 0u);
  EXPECT_EQ(seen.first_value, -1);   // x is not ValueDepend: as on the chip, TilingFunc cannot read its data
  auto plat = platform_ascendc::PlatformAscendC(kgen::rt::platform_infos("Ascend910B2"));
  EXPECT_EQ(r.block_dim, plat.GetCoreNumAiv());
  EXPECT_TRUE(r.block_dim_set);
  EXPECT_EQ(r.tiling_key, 1u);
  EXPECT_TRUE(r.tiling_key_set);
  EXPECT_EQ(r.schedule_mode, 1u);
  EXPECT_EQ(r.capacity, 256u);
  EXPECT_EQ(r.tiling.size(), 256u);
  optiling::KgenHostTestTiling probe;
  EXPECT_EQ(r.data_size, probe.GetDataSize());
  EXPECT_EQ(r.tiling, expected_tiling("Ascend910B2", 256));
  EXPECT_EQ(r.workspace_sizes, (std::vector<size_t>{1024, plat.GetLibApiWorkSpaceSize()}));
  EXPECT_EQ(r.save_failures, 0);
  EXPECT_EQ(r.status, int(ge::GRAPH_SUCCESS));
}

TEST(HostApi, PlatformAnswersForTheCallsSoc) {
  OpCall c = make_call("key");
  c.soc = "Ascend310P3";
  TilingResult r = run_tiling(c, 256);
  ASSERT_TRUE(r.ok) << r.message;
  auto p310 = platform_ascendc::PlatformAscendC(kgen::rt::platform_infos("Ascend310P3"));
  auto p910 = platform_ascendc::PlatformAscendC(kgen::rt::platform_infos("Ascend910B2"));
  EXPECT_EQ(p310.GetSocVersion(), platform_ascendc::SocVersion::ASCEND310P);
  EXPECT_EQ(p910.GetSocVersion(), platform_ascendc::SocVersion::ASCEND910B);
  EXPECT_EQ(r.block_dim, p310.GetCoreNumAiv());
  EXPECT_EQ(r.tiling, expected_tiling("Ascend310P3", 256));
  EXPECT_EQ(r.tiling_key, 7u);
  // a null PlatFormInfos keeps answering for the build's SoC (KGEN_SOC)
  auto pnull = platform_ascendc::PlatformAscendC(nullptr);
  EXPECT_EQ(pnull.GetSocVersion(), platform_ascendc::SocVersion::ASCEND910B);
}

TEST(HostApi, TilingFailures) {
  TilingResult r = run_tiling(make_call("fail"), 256);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.status, int(ge::GRAPH_FAILED));
  EXPECT_NE(r.message.find("TilingFunc returned ge::GRAPH_FAILED"), std::string::npos) << r.message;

  r = run_tiling(make_call("throw"), 256);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("bad shape"), std::string::npos) << r.message;

  // SaveToBuffer into a buffer smaller than the tiling data: nothing written, counted as a failure
  optiling::KgenHostTestTiling probe;
  r = run_tiling(make_call("ok"), probe.GetDataSize() - 8);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.save_failures, 1);
  EXPECT_EQ(r.tiling, std::vector<uint8_t>(probe.GetDataSize() - 8, 0));

  OpCall c = make_call("ok");
  c.op = "NoSuchOp";
  r = run_tiling(c, 64);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("NoSuchOp"), std::string::npos);
  EXPECT_FALSE(infer(c).ok);
}

TEST(HostApi, GetTilingDataPlainStruct) {
  // guide 0072 style: a POD struct written straight into the raw tiling buffer
  struct Pod {
    uint32_t a;
    float b;
  };
  static Pod* got = nullptr;
  struct Fn {
    static ge::graphStatus Run(gert::TilingContext* ctx) {
      got = ctx->GetTilingData<Pod>();
      if (!got) return ge::GRAPH_FAILED;
      got->a = 11;
      got->b = 1.5f;
      ctx->SetBlockDim(2);
      return ge::GRAPH_SUCCESS;
    }
  };
  ops::OpDefFactory::OpDefRegister("KgenHostPodOp", [](const char* n) -> ops::OpDef {
    ops::OpDef d(n);
    d.Input("x").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT});
    d.Output("y").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT});
    d.AICore().SetTiling(Fn::Run);
    return d;
  });
  OpCall c;
  c.op = "KgenHostPodOp";
  TensorArg t;
  t.shape = {8};
  c.inputs = {t};
  c.outputs = {t};
  TilingResult r = run_tiling(c, 64);
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.data_size, sizeof(Pod));
  Pod p;
  std::memcpy(&p, r.tiling.data(), sizeof(p));
  EXPECT_EQ(p.a, 11u);
  EXPECT_EQ(p.b, 1.5f);
  EXPECT_EQ(r.block_dim, 2u);
  EXPECT_FALSE(r.tiling_key_set);
  // no InferShape set
  InferResult ir = infer(c);
  EXPECT_FALSE(ir.ok);
  EXPECT_NE(ir.message.find("SetInferShape"), std::string::npos);
}

TEST(HostApi, DtypeHelpers) {
  EXPECT_STREQ(dtype_cpp_name(ge::DT_FLOAT16), "half");
  EXPECT_STREQ(dtype_cpp_name(ge::DT_BF16), "bfloat16_t");
  EXPECT_STREQ(dtype_name(ge::DT_FLOAT), "float32");
  EXPECT_EQ(dtype_size(ge::DT_INT64), sizeof(int64_t));
  EXPECT_EQ(dtype_size(ge::DT_FLOAT16), 2u);
  EXPECT_EQ(dtype_size(ge::DT_STRING), 0u);
  EXPECT_STREQ(dtype_enum_name(ge::DT_INT32), "DT_INT32");
  EXPECT_STREQ(dtype_enum_name(ge::DT_BF16), "DT_BF16");
  EXPECT_STREQ(format_enum_name(ge::FORMAT_ND), "FORMAT_ND");
  EXPECT_STREQ(format_enum_name(ge::FORMAT_FRACTAL_NZ), "FORMAT_FRACTAL_NZ");
}

TEST(HostApi, HighLevelTilingFillsWhatTheKernelReads) {
  // SoftMax: the tiling's rows per pass follow the work space it is given
  ge::Shape src({16, 64});
  uint32_t mn = AscendC::GetSoftMaxMinTmpSize(src, sizeof(float), false);
  uint32_t mx = AscendC::GetSoftMaxMaxTmpSize(src, sizeof(float), false);
  EXPECT_EQ(mx, mn * 16);
  optiling::SoftMaxTiling sm;
  AscendC::SoftMaxTilingFunc(src, sizeof(float), mn * 4, sm);
  EXPECT_EQ(sm.get_srcM(), 16u);
  EXPECT_EQ(sm.get_srcK(), 64u);
  EXPECT_EQ(sm.get_splitM(), 4u);
  EXPECT_EQ(sm.get_rangeM(), 4u);
  AscendC::tiling::SoftMaxTiling kernel_side;
  EXPECT_EQ(sm.GetDataSize(), sizeof(kernel_side));
  // RmsNorm: the most rows whose temporary fits the stack buffer
  ge::Shape bsh({2, 8, 128});
  uint32_t rmax = 0, rmin = 0;
  ASSERT_TRUE(AscendC::GetRmsNormMaxMinTmpSize(bsh, sizeof(float), rmax, rmin));
  optiling::RmsNormTiling rn;
  ASSERT_TRUE(AscendC::GetRmsNormTilingInfo(bsh, bsh, rmax, sizeof(float), rn));
  EXPECT_EQ(rn.get_mainBsLength(), 16u);
  EXPECT_FLOAT_EQ(rn.get_reciprocalOfHLength(), 1.0f / 128);
  ASSERT_TRUE(AscendC::GetRmsNormTilingInfo(bsh, bsh, rmin, sizeof(float), rn));
  EXPECT_EQ(rn.get_mainBsLength(), 1u);
  EXPECT_FALSE(AscendC::GetRmsNormTilingInfo(bsh, bsh, rmin - 4, sizeof(float), rn));
  // LayerNorm: lastDimValueBack = 1/H, tmpBufSize capped by the maximum
  uint32_t lmax = 0, lmin = 0;
  AscendC::GetLayerNormMaxMinTmpSize(bsh, sizeof(float), false, lmax, lmin);
  EXPECT_LE(lmin, lmax);
  optiling::LayerNormTiling ln;
  AscendC::GetLayerNormNDTilingInfo(bsh, lmax * 2, sizeof(float), false, ln);
  EXPECT_EQ(ln.get_tmpBufSize(), lmax / 4);
  EXPECT_FLOAT_EQ(ln.get_lastDimValueBack(), 1.0f / 128);
  // pattern reduces: max == min, and reusing the source needs nothing for Sum
  uint32_t a = 1, b = 1;
  AscendC::GetReduceSumMaxMinTmpSize(ge::Shape({8, 128}), ge::DT_FLOAT, AscendC::ReducePattern::AR, true, true, a, b);
  EXPECT_EQ(a, 0u);
  AscendC::GetReduceMaxMaxMinTmpSize(ge::Shape({8, 128}), ge::DT_FLOAT, AscendC::ReducePattern::RA, true, false, a, b);
  EXPECT_EQ(a, b);
  EXPECT_GT(a, 0u);
}

namespace {
// The kernel-side struct of a host tiling class, through SaveToBuffer (what GET_TILING_DATA hands the kernel).
template <class K, class H> K kernel_tiling(H& host) {
  K k{};
  EXPECT_EQ(host.GetDataSize(), sizeof(K));
  host.SaveToBuffer(&k, sizeof(K));
  return k;
}
std::vector<float> host_rnd(size_t n, uint32_t seed, float lo, float hi) {
  std::vector<float> v(n);
  uint32_t s = seed;
  for (auto& x : v) { s = s * 1664525u + 1013904223u; x = lo + (hi - lo) * ((s >> 8) / 16777216.0f); }
  return v;
}
// Tensors at byte offsets of one 160 KiB UB buffer of a test core.
struct HostUb {
  kgen::sim::TestCore tc;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  HostUb() { pipe.InitBuffer(buf, 160 * 1024); }
  template <class T> AscendC::LocalTensor<T> at(uint32_t byte_off, uint32_t elems) {
    AscendC::LocalTensor<T> t = buf.Get<T>()[byte_off / sizeof(T)];
    t.SetSize(elems);
    return t;
  }
};
}  // namespace

// The host tiling functions drive the kernel-side APIs: a temporary buffer of exactly the size the host reports
// (minimum, maximum, in between) and the tiling the host fills are accepted, and the results are right, for float
// and half and a padded last axis (originalHLength / oriSrcK below the padded length).
TEST(HostApi, HighLevelTilingDrivesTheKernelApis) {
  using namespace AscendC;
  for (uint32_t ts : {4u, 2u}) {
    // RmsNorm [2, 5, H], H = 37 padded to 32 bytes with zeros
    const uint32_t B = 2, S = 5, oriH = 37, H = ts == 4 ? 40 : 48, rows = B * S;
    ge::Shape src({B, S, H}), origin({B, S, oriH});
    uint32_t mx = 0, mn = 0;
    ASSERT_TRUE(GetRmsNormMaxMinTmpSize(src, ts, mx, mn));
    ASSERT_LT(mn, mx);
    auto x = host_rnd(rows * H, 7, -3, 3), g = host_rnd(H, 8, 0.5f, 1.5f);
    for (uint32_t r = 0; r < rows; ++r) for (uint32_t h = oriH; h < H; ++h) x[r * H + h] = 0;
    for (uint32_t stack : {mn, (mn + mx) / 2, mx}) {
      optiling::RmsNormTiling host;
      ASSERT_TRUE(GetRmsNormTilingInfo(src, origin, stack, ts, host));
      RmsNormTiling t = kernel_tiling<RmsNormTiling>(host);
      HostUb ub;
      auto run = [&](auto tag) {
        using T = decltype(tag);
        auto in = ub.at<T>(0, rows * H), out = ub.at<T>(4096, rows * H), gm = ub.at<T>(8192, H);
        for (uint32_t i = 0; i < rows * H; ++i) in.SetValue(i, T(x[i]));
        for (uint32_t i = 0; i < H; ++i) gm.SetValue(i, T(g[i]));
        PipeBarrier<PIPE_ALL>();
        std::string e = kgen::sim::error_of([&] { RmsNorm<T>(out, in, gm, ub.at<uint8_t>(16384, stack), T(1e-5f), t); });
        ASSERT_EQ(e, "") << "ts " << ts << " stack " << stack;
        PipeBarrier<PIPE_ALL>();
        for (uint32_t r = 0; r < rows; ++r) {
          double ss = 0;
          for (uint32_t h = 0; h < oriH; ++h) ss += double(float(in.GetValue(r * H + h))) * float(in.GetValue(r * H + h));
          double rstd = 1 / std::sqrt(ss / oriH + 1e-5);
          for (uint32_t h = 0; h < oriH; ++h) {
            double y = float(in.GetValue(r * H + h)) * rstd * float(gm.GetValue(h));
            EXPECT_NEAR(float(out.GetValue(r * H + h)), y, (ts == 2 ? 2e-3 : 2e-5) * (1 + std::fabs(y))) << r << " " << h;
          }
        }
      };
      if (ts == 2) run(half{}); else run(float{});
    }
    // LogSoftMax and SoftMax [6, K], K = 37 padded to 32 bytes; the shape from SoftMaxShapeInfo
    const uint32_t M = 6, oriK = 37, K = H;
    ge::Shape sm({M, K});
    uint32_t lmin = GetLogSoftMaxMinTmpSize(sm, ts, false), lmax = GetLogSoftMaxMaxTmpSize(sm, ts, false);
    uint32_t smin = GetSoftMaxMinTmpSize(sm, ts, false), smax = GetSoftMaxMaxTmpSize(sm, ts, false);
    auto v = host_rnd(M * K, 9, -4, 4);
    for (uint32_t work : {lmin, (lmin + lmax) / 2, lmax}) {
      optiling::LogSoftMaxTiling lh;
      LogSoftMaxTilingFunc(sm, ts, work, lh);
      LogSoftMaxTiling lt = kernel_tiling<LogSoftMaxTiling>(lh);
      optiling::SoftMaxTiling sh;
      uint32_t swork = work == lmin ? smin : work == lmax ? smax : (smin + smax) / 2;
      SoftMaxTilingFunc(sm, ts, swork, sh);
      SoftMaxTiling st = kernel_tiling<SoftMaxTiling>(sh);
      HostUb ub;
      auto run = [&](auto tag) {
        using T = decltype(tag);
        uint32_t er = 32 / sizeof(T);
        auto in = ub.at<T>(0, M * K), out = ub.at<T>(4096, M * K), out2 = ub.at<T>(8192, M * K);
        auto sum = ub.at<T>(12288, M * er), max = ub.at<T>(13312, M * er);
        for (uint32_t i = 0; i < M * K; ++i) in.SetValue(i, T(v[i]));
        PipeBarrier<PIPE_ALL>();
        std::string e = kgen::sim::error_of([&] {
          LogSoftMax<T>(out, sum, max, in, ub.at<uint8_t>(16384, work), lt, {M, K, M, oriK});
          SoftMax<T>(out2, sum, max, in, ub.at<uint8_t>(16384, swork), st, {M, K, M, oriK});
        });
        ASSERT_EQ(e, "") << "ts " << ts << " work " << work;
        PipeBarrier<PIPE_ALL>();
        for (uint32_t m = 0; m < M; ++m) {
          double a = -1e30, s = 0;
          for (uint32_t k = 0; k < oriK; ++k) a = std::max(a, double(float(in.GetValue(m * K + k))));
          for (uint32_t k = 0; k < oriK; ++k) s += std::exp(float(in.GetValue(m * K + k)) - a);
          for (uint32_t k = 0; k < oriK; ++k) {
            double p = std::exp(float(in.GetValue(m * K + k)) - a) / s;
            double tol = ts == 2 ? 2e-3 : 2e-5;
            EXPECT_NEAR(float(out.GetValue(m * K + k)), std::log10(p), tol * (1 + std::fabs(std::log10(p)))) << m << " " << k;
            EXPECT_NEAR(float(out2.GetValue(m * K + k)), p, tol * (1 + p)) << m << " " << k;
          }
        }
      };
      if (ts == 2) run(half{}); else run(float{});
    }
  }
  // LayerNorm [2, 3, 64] float with the minimum and the maximum stack buffer
  {
    const uint32_t B = 2, S = 3, H = 64, rows = B * S;
    ge::Shape src({B, S, H});
    uint32_t mx = 0, mn = 0;
    GetLayerNormMaxMinTmpSize(src, 4, false, mx, mn);
    auto x = host_rnd(rows * H, 12, -2, 3), g = host_rnd(H, 13, 0.5f, 1.5f), b = host_rnd(H, 14, -1, 1);
    for (uint32_t stack : {mn, mx}) {
      optiling::LayerNormTiling host;
      GetLayerNormNDTilingInfo(src, stack, 4, false, host);
      LayerNormTiling t = kernel_tiling<LayerNormTiling>(host);
      HostUb ub;
      auto in = ub.at<float>(0, rows * H), out = ub.at<float>(4096, rows * H), gm = ub.at<float>(8192, H);
      auto bt = ub.at<float>(8704, H), mean = ub.at<float>(9216, 8), var = ub.at<float>(9472, 8);
      for (uint32_t i = 0; i < rows * H; ++i) in.SetValue(i, x[i]);
      for (uint32_t i = 0; i < H; ++i) { gm.SetValue(i, g[i]); bt.SetValue(i, b[i]); }
      PipeBarrier<PIPE_ALL>();
      std::string e = kgen::sim::error_of([&] {
        LayerNorm<float>(out, mean, var, in, gm, bt, ub.at<uint8_t>(16384, stack), 1e-5f, t);
      });
      ASSERT_EQ(e, "") << "stack " << stack;
      PipeBarrier<PIPE_ALL>();
      for (uint32_t r = 0; r < rows; ++r) {
        double m = 0, q = 0;
        for (uint32_t h = 0; h < H; ++h) m += x[r * H + h];
        m /= H;
        for (uint32_t h = 0; h < H; ++h) q += (x[r * H + h] - m) * (x[r * H + h] - m);
        q /= H;
        for (uint32_t h = 0; h < H; ++h) {
          double y = (x[r * H + h] - m) / std::sqrt(q + 1e-5) * g[h] + b[h];
          EXPECT_NEAR(out.GetValue(r * H + h), y, 2e-5 * (1 + std::fabs(y))) << r << " " << h;
        }
      }
    }
  }
  // Pattern reduces: a temporary buffer of exactly GetReduceXxxMaxMinTmpSize's size is enough, 32 bytes less is not.
  for (bool ra : {false, true}) {
    const uint32_t first = 16, last = 200;   // 200 floats: a multiple of 32 bytes
    uint32_t shape[2] = {first, last};
    ge::Shape s({first, last});
    ReducePattern p = ra ? ReducePattern::RA : ReducePattern::AR;
    uint32_t smx = 0, smn = 0, mmx = 0, mmn = 0;
    GetReduceSumMaxMinTmpSize(s, ge::DT_FLOAT, p, true, false, smx, smn);
    GetReduceMaxMaxMinTmpSize(s, ge::DT_FLOAT, p, true, false, mmx, mmn);
    ASSERT_GT(smn, 32u);
    ASSERT_GT(mmn, 32u);
    HostUb ub;
    auto in = ub.at<float>(0, first * last), out = ub.at<float>(16384, last);
    auto v = host_rnd(first * last, 11, -2, 2);
    for (uint32_t i = 0; i < first * last; ++i) in.SetValue(i, v[i]);
    PipeBarrier<PIPE_ALL>();
    std::string e = kgen::sim::error_of([&] {
      if (ra) ReduceSum<float, Pattern::Reduce::RA>(out, in, ub.at<uint8_t>(20480, smn), shape, true);
      else ReduceSum<float, Pattern::Reduce::AR>(out, in, ub.at<uint8_t>(20480, smn), shape, true);
    });
    EXPECT_EQ(e, "") << ra;
    e = kgen::sim::error_of([&] {
      if (ra) ReduceMax<float, Pattern::Reduce::RA>(out, in, ub.at<uint8_t>(20480, mmn - 32), shape, true);
      else ReduceMax<float, Pattern::Reduce::AR>(out, in, ub.at<uint8_t>(20480, mmn - 32), shape, true);
    });
    EXPECT_NE(e.find(std::to_string(mmn)), std::string::npos) << e;
  }
}
