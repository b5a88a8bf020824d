#!/usr/bin/env bash
# The host API of op projects is CANN's and no wider: correct CANN forms compile against include/ascendc, invented
# ones fail with the compiler's message at the user's file and line. Args: kgen binary dir, source dir.
set -euo pipefail
BIN=$1; ROOT=$2
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
CXX=${CXX:-g++}
fail() { echo "FAIL: $*"; exit 1; }
compile() { "$CXX" -std=c++17 -fsyntax-only -I "$ROOT/include/ascendc" "$@"; }

# ------------------------------------------------------------------------------------------- correct CANN forms
cat > "$TMP/good.cpp" <<'K'
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(GoodTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF_ARR(int64_t, 4, dims);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmax);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(GoodCustom, GoodTilingData)
struct PodTiling { uint32_t n; float eps; };
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  GoodTilingData tiling;
  const gert::StorageShape* xs = context->GetInputShape(0);                               // 1 StorageShape
  uint32_t total = xs->GetOriginShape().GetShapeSize();
  const gert::Shape& st = xs->GetStorageShape();
  int64_t last = st.GetDim(st.GetDimNum() - 1) + st[0];                                    // 2 Shape accessors
  const gert::RuntimeAttrs* attrs = context->GetAttrs();
  const int64_t* k = attrs->GetAttrPointer<int64_t>(0);                                    // 3 attrs
  const float* eps = attrs->GetFloat(1);
  const bool* flag = attrs->GetBool(2);
  const char* mode = attrs->GetStr(3);
  const gert::TypedContinuousVector<int64_t>* axes = attrs->GetListInt(4);
  size_t n = axes->GetSize() + attrs->GetAttrNum();
  ge::DataType dt = context->GetInputDesc(0)->GetDataType();                               // 4 tensor desc
  ge::Format fmt = context->GetInputDesc(0)->GetStorageFormat();
  const gert::Tensor* t = context->GetInputTensor(0);                                      // 5 tensor
  auto shapeX = t->GetOriginShape();
  const float* data = t->GetData<float>();
  const gert::StorageShape* bias = context->GetOptionalInputShape(1);                      // 6 optional input
  auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());  // 7 platform
  uint32_t aiv = ascendcPlatform.GetCoreNumAiv();
  uint64_t ub = 0;
  ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  bool is310p = ascendcPlatform.GetSocVersion() == platform_ascendc::SocVersion::ASCEND310P;
  context->SetBlockDim(aiv);                                                               // 8 outputs
  context->SetTilingKey(1);
  context->SetScheduleMode(1);
  ge::Shape srcShape({8, 64});                                                             // 9 high-level tiling
  uint32_t tmp = AscendC::GetSoftMaxMinTmpSize(srcShape, sizeof(float), false);
  AscendC::SoftMaxTilingFunc(srcShape, sizeof(float), tmp, tiling.softmax);
  uint32_t maxTmp = 0, minTmp = 0;                                                         // 9b elementwise tmp sizes
  AscendC::GetSigmoidMaxMinTmpSize(srcShape, sizeof(float), false, maxTmp, minTmp);
  AscendC::GetRoundMaxMinTmpSize(ascendcPlatform, srcShape, 2, false, maxTmp, minTmp);
  bool expOk = AscendC::GetExpMaxMinTmpSize(srcShape, 2, false, maxTmp, minTmp);
  tiling.set_totalLength(total);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  size_t* ws = context->GetWorkspaceSizes(1);                                              // 10 workspace
  ws[0] = ascendcPlatform.GetLibApiWorkSpaceSize();
  PodTiling* pod = context->GetTilingData<PodTiling>();                                    // 11 typed tiling data
  (void)last; (void)k; (void)eps; (void)flag; (void)mode; (void)n; (void)dt; (void)fmt; (void)shapeX;
  (void)data; (void)bias; (void)ub; (void)is310p; (void)pod; (void)expOk;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context) {                      // 12 InferShape
  const gert::Shape* x = context->GetInputShape(0);
  gert::Shape* y = context->GetOutputShape(0);
  *y = *x;
  y->SetDimNum(2);
  y->SetDim(1, x->GetDim(0));
  y->AppendDim(1);
  return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context) {                // 13 InferDataType
  context->SetOutputDataType(0, context->GetInputDataType(0));
  return ge::GRAPH_SUCCESS;
}
static ge::graphStatus InferShapeRange(gert::InferShapeRangeContext* context) {            // 13b shape ranges
  const gert::Range<gert::Shape>* x = context->GetInputShapeRange(0);
  gert::Range<gert::Shape>* y = context->GetOutputShapeRange(0);
  if (x == nullptr || y == nullptr || x->GetMax() == nullptr) return GRAPH_FAILED;
  *y->GetMax() = *x->GetMax();
  *y->GetMin() = *x->GetMin();
  return GRAPH_SUCCESS;
}
static ge::graphStatus CheckSupported(const ge::Operator& op, ge::AscendString& result) {   // 13c check support
  ge::TensorDesc x = op.GetInputDescByName("x");
  int64_t k = 0;
  bool ok = op.GetAttr("k", k) == GRAPH_SUCCESS && x.GetShape().GetDimNum() <= 8 &&
            ge::GetSizeByDataType(x.GetDataType()) > 0 && op.GetOutputDescByName("y").GetFormat() == FORMAT_ND;
  result = ge::AscendString(ok ? R"({"isSupported": "True"})" : R"({"isSupported": "False"})");
  return ok ? GRAPH_SUCCESS : GRAPH_FAILED;
}
}  // namespace ge
namespace ops {
class GoodCustom : public OpDef {                                                         // 14 OpDef
 public:
  explicit GoodCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("bias").ParamType(OPTIONAL).DataTypeList({ge::DT_FLOAT}).FormatList({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Attr("k").AttrType(REQUIRED).Int();
    this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
    this->Attr("flag").AttrType(OPTIONAL).Bool(false);
    this->Attr("mode").AttrType(OPTIONAL).String("sum");
    this->Attr("axes").AttrType(OPTIONAL).ListInt({0, 1});
    this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
    this->SetInferShapeRange(ge::InferShapeRange);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().SetCheckSupport(ge::CheckSupported);
    this->AICore().AddConfig("ascend910b");
    OpAICoreConfig cfg;                                                                    // 15 AddConfig with a config
    cfg.DynamicCompileStaticFlag(true).DynamicShapeSupportFlag(true);
    this->AICore().AddConfig("ascend310p", cfg);
  }
};
OP_ADD(GoodCustom);
}  // namespace ops
K
compile "$TMP/good.cpp" 2>"$TMP/err" || { cat "$TMP/err"; fail "correct CANN host forms do not compile"; }
# ge::Operator, as a check-support function reads it: descriptions by name, attributes by type.
cat > "$TMP/operator.cpp" <<'K'
#include "register/op_def_registry.h"
int main() {
  ge::Operator op("n0", "ReverseSequence");
  op.UpdateInputDesc("x", ge::TensorDesc(ge::Shape({4, 8}), ge::FORMAT_ND, ge::DT_FLOAT16));
  op.SetAttr("seq_dim", static_cast<int64_t>(1));
  int64_t seq = 0, missing = 7;
  float wrong = 0;
  if (op.GetInputDescByName("x").GetShape().GetDim(1) != 8 || op.GetInputDescByName("x").GetDataType() != ge::DT_FLOAT16)
    return 1;
  if (op.GetInputDescByName("nope").GetShape().GetDimNum() != 0) return 2;
  if (op.GetAttr("seq_dim", seq) != ge::GRAPH_SUCCESS || seq != 1) return 3;
  if (op.GetAttr("batch_dim", missing) != ge::GRAPH_FAILED || missing != 7) return 4;
  if (op.GetAttr("seq_dim", wrong) != ge::GRAPH_FAILED) return 5;
  return 0;
}
K
"$CXX" -std=c++17 -I "$ROOT/include/ascendc" "$TMP/operator.cpp" -o "$TMP/operator" 2>"$TMP/err" || { cat "$TMP/err"; fail "ge::Operator does not compile"; }
"$TMP/operator" || fail "ge::Operator answered wrongly (exit $?)"
# What cann-ops op_host files take from CANN headers beside the tiling API: metadef's error reports, the aclnn opdev
# log macros, and std::array / std::find through the tiling headers (NPUKernelBench's FeedsRepeat, ReverseSequence).
cat > "$TMP/good2.cpp" <<'K'
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"
#include "experiment/metadef/common/util/error_manager/error_manager.h"
#include "aclnn/opdev/op_log.h"
static int Check(int v) {
  const std::array<int, 2> allowed = {{1, 2}};
  OP_CHECK(std::find(allowed.begin(), allowed.end(), v) != allowed.end(),
           OP_LOGE("Op", "value %d is not allowed", v), return -1);
  OP_LOGD("Op", "checked %d", v);
  if (v == 2) REPORT_INNER_ERROR("89999", "%s", "two");
  return 0;
}
int main() { return Check(1) + Check(3) == -1 ? 0 : 1; }
K
"$CXX" -std=c++17 -I "$ROOT/include/ascendc" "$TMP/good2.cpp" -o "$TMP/good2" 2>"$TMP/err" || { cat "$TMP/err"; fail "CANN's error and log macros do not compile"; }
"$TMP/good2" 2>"$TMP/good2.err" || fail "OP_CHECK did not return on a failed check"
grep -q "\[ERROR\] value 3 is not allowed" "$TMP/good2.err" || { cat "$TMP/good2.err"; fail "OP_LOGE printed nothing"; }

# ------------------------------------------------------------------------------------------- invented forms
# Each: a statement placed in a TilingFunc / InferShape / OpDef body at line 6; it must fail at good-file line 6.
n=0
invented() {   # where: tiling|infer|opdef, code, what
  local where=$1 code=$2 what=$3 f="$TMP/bad$n.cpp"
  n=$((n + 1))
  {
    echo '#include "register/op_def_registry.h"'
    echo '#include "tiling/platform/platform_ascendc.h"'
    case $where in
      tiling) echo 'static ge::graphStatus F(gert::TilingContext* context) {'; echo '  auto* ctx = context;' ;;
      infer) echo 'static ge::graphStatus F(gert::InferShapeContext* context) {'; echo '  gert::Shape shape;' ;;
      opdef) echo 'namespace ops { struct Op : OpDef { Op(const char* n) : OpDef(n) {'; echo '' ;;
    esac
    echo '  (void)0;'
    echo "  $code;"
    case $where in
      opdef) echo '} }; }' ;;
      *) echo '  return ge::GRAPH_SUCCESS; }' ;;
    esac
  } > "$f"
  if compile "$f" 2>"$TMP/err"; then fail "invented API compiled: $what ($code)"; fi
  grep -q "bad$((n - 1)).cpp:6:.*error" "$TMP/err" || { cat "$TMP/err"; fail "no error at the user's line for: $what"; }
}
invented tiling 'context->GetAttr<int>(0)' "GetAttr<T> on TilingContext (CANN: GetAttrs()->GetAttrPointer<T>)"
invented tiling 'context->GetInputShape(0)->GetShapeSize()' "GetShapeSize on StorageShape (CANN: on GetOriginShape()/GetStorageShape())"
invented tiling 'ctx->SetBlockDims(8)' "SetBlockDims"
invented tiling 'context->GetInputShape(0)->GetDims()' "GetDims on StorageShape"
invented tiling 'context->GetInputShape(0)->GetOriginShape().size()' "size() on gert::Shape"
invented tiling 'context->GetTilingData()->GetData()' "GetTilingData without a type"
invented tiling 'context->SetWorkspaceSize(0, 16)' "SetWorkspaceSize"
invented tiling 'platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetUBSize()' "GetUBSize"
invented infer 'context->GetInputShape(0)->GetStorageShape()' "GetStorageShape on InferShapeContext's gert::Shape"
invented infer 'shape.push_back(3)' "push_back on gert::Shape"
invented opdef 'this->Input("x").DType({ge::DT_FLOAT})' "DType instead of DataType"
invented opdef 'this->Attr("k").Int64(3)' "Int64 instead of Int"
invented opdef 'this->Input("x").ParamType(ops::Required)' "Required instead of REQUIRED"
invented opdef 'this->AICore().SetTilingFunc(nullptr)' "SetTilingFunc instead of SetTiling"
echo "host_api_surface: correct forms compile, $n invented forms rejected at the user's line"
