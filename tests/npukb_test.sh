#!/bin/bash
# NPUKernelBench tasks: kgen's own task in NPUKernelBench's layout (tests/data/npukb: validation/{module.py,
# prepare_inputs.py, test_cases.csv, pybind.cpp}, a cann-ops style answer) is evaluated as its harness does and
# passes every case; variants with one mistake fail the way they should; scripts/npukb_check.sh reports it.
# usage: npukb_test.sh KGEN SOURCE_DIR
set -u
KGEN=$1
SRC=$2
export KGEN_CACHE=$(mktemp -d)
W=$(mktemp -d)
trap 'rm -rf "$KGEN_CACHE" "$W"' EXIT
if ! /usr/bin/python3 -c 'import torch, numpy' 2>/dev/null; then echo "SKIP: /usr/bin/python3 lacks torch/numpy"; exit 0; fi
fail=0
T=$SRC/tests/data/npukb/tasks/level1/Math/ScaleCustom
verdict() {   # verdict JSON-FILE: "<verdict> <cases passed>/<cases>"
  /usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); c=r.get("cases",[]); n=sum(1 for x in c if x.get("correct")); print(r["verdict"], "%d/%d" % (n, len(c)))' "$1"
}
expect() {   # expect NAME WANT TASK PROJECT [GREP]
  local name=$1 want=$2 task=$3 proj=$4 pat=${5:-}
  "$KGEN" eval --task "$task" --candidate "$proj" --json > "$W/$name.json" 2> "$W/$name.err"
  local got; got=$(verdict "$W/$name.json" 2>/dev/null)
  if [ "$got" != "$want" ]; then echo "FAIL: $name: want '$want', got '$got'"; head -c 2000 "$W/$name.json"; cat "$W/$name.err"; fail=1; return; fi
  if [ -n "$pat" ] && ! grep -q -- "$pat" "$W/$name.json"; then echo "FAIL: $name: no '$pat' in the result"; head -c 2000 "$W/$name.json"; fail=1; return; fi
  echo "ok: $name: $got"
}
# The two answers pass every case: checked once, by the checkout script at the end (kgen bench --generator answer).
# A wrong kernel: custom_check_precision fails the cases.
cp -r "$T/answer/0" "$W/adds"
sed -i 's/Muls(yl, xl, a, n);/Adds(yl, xl, a, n);/' "$W/adds/op_kernel/scale_custom.cpp"
expect wrong "wrong-answer 0/4" "$T" "$W/adds" "custom_check_precision fails"
# The tiling function registered nowhere: every case fails with the op's error, not a crash.
cp -r "$T/answer/0" "$W/notiling"
sed -i 's/    .Tiling(Tiling4Scale)//' "$W/notiling/op_host/scale_custom.cpp"
expect notiling "runtime-error 0/4" "$T" "$W/notiling" "sets no tiling function"
# The reference data are made once per task and seed and kept (src/eval/npukb_reference.h): both evaluations so far
# share one folder, nothing half-written is left, and the second took no reference time worth a Python start.
kept() { ls "$KGEN_CACHE/npukb-ref" 2>/dev/null | grep -vc '\.tmp-'; }
ref_s() { /usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["reference_s"] < 0.5)' "$1"; }
if [ "$(kept)" = 1 ] && ! ls "$KGEN_CACHE/npukb-ref" | grep -q '\.tmp-' && [ "$(ref_s "$W/notiling.json")" = True ] \
   && [ "$(ref_s "$W/wrong.json")" = False ]; then echo "ok: reference data kept and reused"
else echo "FAIL: reference data kept and reused: $(ls "$KGEN_CACHE/npukb-ref")"; fail=1; fi
# A kept folder whose manifest is gone is made again, with the same verdict.
rm "$KGEN_CACHE"/npukb-ref/*/manifest.json
expect remade "wrong-answer 0/4" "$T" "$W/adds" "custom_check_precision fails"
[ "$(ref_s "$W/remade.json")" = False ] && [ "$(kept)" = 1 ] && ls "$KGEN_CACHE"/npukb-ref/*/manifest.json > /dev/null \
  && echo "ok: an incomplete kept folder is made again" \
  || { echo "FAIL: an incomplete kept folder is made again"; fail=1; }
# The aclnn layer built after all (a built file includes it): what it includes is checked, CANN's kernels refused.
cp -r "$T/answer/0" "$W/layer"
echo '#include "aclnn_scale_custom.cpp"' >> "$W/layer/op_host/scale_custom.cpp"
expect layer_included "cheating 0/0" "$T" "$W/layer" "aclnn_kernels/contiguous.h"
# A case the OpDef has no column for (bfloat16) fails alone; the others still pass.
cp -r "$T" "$W/ScaleCustom"
echo '4;[8];bfloat16;2' >> "$W/ScaleCustom/validation/test_cases.csv"
expect bf16_case "runtime-error 4/5" "$W/ScaleCustom" "$T/answer/0" "bfloat16"
# A binding that returns the result flattened: the same elements in another shape, which the harness's subtraction
# accepts; kgen compares them too and says so.
mkdir -p "$W/flat" && cp -r "$T" "$W/flat/ScaleCustom"   # the folder's name is the op's
sed -i 's/    return result;/    return result.flatten();/' "$W/flat/ScaleCustom/validation/pybind.cpp"
expect flat_result "correct 4/4" "$W/flat/ScaleCustom" "$T/answer/0" "the same elements, compared as the harness does"
# The cann-ops host idioms, in a variant of the answer: tiling strategies (tiling/tiling_base.h TilingBaseClass)
# registered with priorities (tiling/tiling_templates_registry.h; the first is never capable, the second tiles),
# error/ops_error.h and log/ops_log.h macros, GetComputeNodeInfo()'s instance counts, unqualified `vector` and
# std::cout as CANN's headers provide them, and a tiling header that also holds host code (a gert:: helper), which
# the kernel build must not see. The binding passes an aclScalar* of its own (ConvertType), ModelNew a NumPy scalar
# and runs a float16 torch op the CPU lacks (gelu) before the call.
mkdir -p "$W/idioms" && cp -r "$T" "$W/idioms/ScaleCustom"
V=$W/idioms/ScaleCustom
cat >> "$V/answer/0/op_host/scale_custom_tiling.h" <<'CPP'
#include "register/op_def_registry.h"
namespace optiling {
inline uint32_t InputElements(gert::TilingContext* context)   // host code in the tiling header
{
    return static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
}
}  // namespace optiling
CPP
cat > "$V/answer/0/op_host/scale_custom.cpp" <<'CPP'
// ScaleCustom's tiling as cann-ops writes it: strategies over TilingBaseClass, tried by priority.
#include "scale_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"
#include "tiling/tiling_templates_registry.h"
#include "error/ops_error.h"

namespace optiling {
class ScaleTilingBase : public TilingBaseClass {
public:
    explicit ScaleTilingBase(gert::TilingContext* context) : TilingBaseClass(context) {}
protected:
    ge::graphStatus GetShapeAttrsInfo() override
    {
        auto* node = context_->GetComputeNodeInfo();
        OPS_CHECK_NULL_WITH_CONTEXT(context_, node);
        OPS_ERR_IF(node->GetInputInstanceInfo(0)->GetInstanceNum() != 1,
                   OPS_REPORT_VECTOR_INNER_ERR(context_, "x must be one tensor"), return ge::GRAPH_FAILED);
        total_ = InputElements(context_);
        dtype_ = context_->GetInputDesc(0)->GetDataType();
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus GetPlatformInfo() override
    {
        auto platform = platform_ascendc::PlatformAscendC(context_->GetPlatformInfo());
        aicoreParams_.blockDim = platform.GetCoreNumAiv();
        platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, aicoreParams_.ubSize);
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus DoLibApiTiling() override { return ge::GRAPH_SUCCESS; }
    ge::graphStatus GetWorkspaceSize() override { return ge::GRAPH_SUCCESS; }
    uint64_t GetTilingKey() const override { return 0; }
    uint32_t total_ = 0;
    ge::DataType dtype_ = ge::DT_FLOAT;
};

static int g_never_asked = 0;   // the registry asks priority 0 first
class ScaleNeverTiling : public ScaleTilingBase {   // priority 0: tried first, never capable
public:
    using ScaleTilingBase::ScaleTilingBase;
protected:
    bool IsCapable() override { ++g_never_asked; return false; }
    ge::graphStatus DoOpTiling() override { return ge::GRAPH_FAILED; }
    ge::graphStatus PostTiling() override { return ge::GRAPH_FAILED; }
};

class ScaleSplitTiling : public ScaleTilingBase {
public:
    using ScaleTilingBase::ScaleTilingBase;
protected:
    bool IsCapable() override { return true; }
    ge::graphStatus DoOpTiling() override
    {
        OPS_ERR_IF(g_never_asked == 0, OPS_LOG_E(context_, "priority 0 was not tried first"), return ge::GRAPH_FAILED);
        uint32_t typeLength = dtype_ == ge::DT_FLOAT16 ? 2 : 4;
        uint32_t align = 32 / typeLength, cores = static_cast<uint32_t>(aicoreParams_.blockDim);
        vector<uint32_t> sizes = {(total_ + cores - 1) / cores};
        uint32_t perCore = (sizes[0] + align - 1) / align * align;
        uint32_t tile = static_cast<uint32_t>(aicoreParams_.ubSize / 4 / typeLength) / align * align;
        tiling_.set_totalLength(total_);
        tiling_.set_perCore(perCore);
        tiling_.set_tileLength(perCore < tile ? perCore : tile);
        tiling_.set_isHalf(dtype_ == ge::DT_FLOAT16);
        blockDim_ = (total_ + perCore - 1) / perCore;
        OPS_LOG_D(context_, "blockDim %u", blockDim_);
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus PostTiling() override
    {
        context_->SetBlockDim(blockDim_);
        tiling_.SaveToBuffer(context_->GetRawTilingData()->GetData(), context_->GetRawTilingData()->GetCapacity());
        context_->GetRawTilingData()->SetDataSize(tiling_.GetDataSize());
        return ge::GRAPH_SUCCESS;
    }
    ScaleCustomTilingData tiling_;
};

REGISTER_TILING_TEMPLATE("ScaleCustom", ScaleSplitTiling, 10);
REGISTER_TILING_TEMPLATE("ScaleCustom", ScaleNeverTiling, 0);

static ge::graphStatus Tiling4Scale(gert::TilingContext* context)
{
    return TilingRegistry::GetInstance().DoTilingImpl(context);
}
static ge::graphStatus TilingPrepare4Scale(gert::TilingParseContext*) { return ge::GRAPH_SUCCESS; }
struct ScaleCompileInfo {};
IMPL_OP_OPTILING(ScaleCustom).Tiling(Tiling4Scale).TilingParse<ScaleCompileInfo>(TilingPrepare4Scale);
}  // namespace optiling

namespace ge {
static graphStatus InferShape4Scale(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
IMPL_OP_INFERSHAPE(ScaleCustom).InferShape(InferShape4Scale);
}  // namespace ge
CPP
sed -i 's/    c10::Scalar scale(alpha);.*/    aclScalar* scale = ConvertType(c10::Scalar(alpha));/' "$V/validation/pybind.cpp"
sed -i 's/        return kernel_gen_ops.scale_custom(x, self.alpha)/        import numpy\n        x = x + (torch.nn.functional.gelu(x) - torch.nn.functional.gelu(x))\n        return kernel_gen_ops.scale_custom(x, numpy.float64(self.alpha))/' "$V/validation/module.py"
expect cann_ops_idioms "correct 4/4" "$V" "$V/answer/0"
# An InferDataType that disagrees with the OpDef: the aclnn API takes the outputs allocated and never runs it, so
# the binding's float output and the OpDef's column decide, as on the chip.
cp -r "$T/answer/0" "$W/inferdt"
sed -i 's/context->SetOutputDataType(0, context->GetInputDataType(0));/context->SetOutputDataType(0, ge::DT_INT32);/' \
  "$W/inferdt/op_host/scale_custom.cpp"
grep -q 'DT_INT32' "$W/inferdt/op_host/scale_custom.cpp" || { echo "FAIL: inferdt variant not written"; fail=1; }
expect infer_dtype_ignored "correct 4/4" "$T" "$W/inferdt"
# A ref parameter: the OpDef's output named as its input ("x"), so the generated aclnn function takes x once and the
# kernel writes it in place; the binding returns x. Passing a separate output as well is the op's error.
mkdir -p "$W/ref" && cp -r "$T" "$W/ref/ScaleCustom"
R=$W/ref/ScaleCustom
sed -i 's/this->Output("y")/this->Output("x")/' "$R/answer/0/op_host/scale_custom_def.cpp"
# The kernel reads its output address: the same GM as x only when the two are one tensor.
sed -i 's/DataCopyPad(xl, xGm\[off\], params/DataCopyPad(xl, yGm[off], params/' "$R/answer/0/op_kernel/scale_custom.cpp"
grep -q 'DataCopyPad(xl, yGm\[off\]' "$R/answer/0/op_kernel/scale_custom.cpp" || { echo "FAIL: ref variant not written"; fail=1; }
sed -i 's/    EXEC_NPU_CMD(aclnnCustomOp, x, scale, result);/    EXEC_NPU_CMD(aclnnCustomOp, x, scale);/; s/    return result;/    return x;/' \
  "$R/validation/pybind.cpp"
expect ref_parameter "correct 4/4" "$R" "$R/answer/0"
sed -i 's/    EXEC_NPU_CMD(aclnnCustomOp, x, scale);/    EXEC_NPU_CMD(aclnnCustomOp, x, scale, result);/' "$R/validation/pybind.cpp"
expect ref_parameter_extra "runtime-error 0/4" "$R" "$R/answer/0" "a ref parameter"
# A header's non-inline function in two op_host files: CANN's CMake compiles them into two libraries (optiling and
# op_host_aclnnInner), so that is no clash there nor here; with both files in one target it is a link error.
cp -r "$T/answer/0" "$W/shared"
printf '#pragma once\n#include <cstdint>\nint64_t ScaleCeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }\n' \
  > "$W/shared/op_host/scale_shared.h"
sed -i 's|#include "scale_custom_tiling.h"|#include "scale_custom_tiling.h"\n#include "scale_shared.h"|' "$W/shared/op_host/scale_custom.cpp"
sed -i 's|#include "register/op_def_registry.h"|#include "register/op_def_registry.h"\n#include "scale_shared.h"|' "$W/shared/op_host/scale_custom_def.cpp"
expect shared_header "correct 4/4" "$T" "$W/shared"
cp -r "$W/shared" "$W/onelib"
sed -i 's|^target_sources(op_host_aclnnInner PRIVATE op_host/scale_custom_def.cpp)|target_sources(optiling PRIVATE op_host/scale_custom_def.cpp)|' "$W/onelib/CMakeLists.txt"
sed -i 's|^target_sources(opsproto PRIVATE op_host/scale_custom.cpp)||' "$W/onelib/CMakeLists.txt"
expect one_library "compile-error 0/0" "$T" "$W/onelib" "multiple definition"
# An int8 case: torch.randn cannot draw int8 on the CPU; kgen draws float32 and converts (kgen_npukb/int_draws.py), so
# the case reaches the op, whose OpDef has no int8 column: the op's error, not the reference's.
cp -r "$T" "$W/IntCase" && mkdir -p "$W/int" && mv "$W/IntCase" "$W/int/ScaleCustom"
echo '4;[8];int8;2' >> "$W/int/ScaleCustom/validation/test_cases.csv"
expect int8_case "runtime-error 4/5" "$W/int/ScaleCustom" "$T/answer/0" "int8"
if grep -q 'reference failed' "$W/int8_case.json"; then echo "FAIL: int8_case: the reference failed"; fail=1; fi
# A ValueDepend input with integer dtypes: the generated aclnn API takes an aclIntArray for it (the binding's
# ConvertType(at::IntArrayRef(v))), which reaches the op as an int64 tensor (NPUKernelBench's Fill dims). ScaleCustom
# with its alpha so declared and integer alphas passes; without ValueDepend the int list is no tensor.
cp -r "$T" "$W/VdCase" && mkdir -p "$W/vd" && mv "$W/VdCase" "$W/vd/ScaleCustom"
V2=$W/vd/ScaleCustom
printf 'case_id;input_shape;dtype;alpha\n0;[4, 100];float32;2\n1;[1000];float16;-2\n2;[3, 7, 33];float32;3\n3;[1];float16;3\n' \
  > "$V2/validation/test_cases.csv"
sed -i 's|c10::Scalar scale(alpha);.*|std::vector<int64_t> values{static_cast<int64_t>(alpha)};\n    aclIntArray* scale = ConvertType(at::IntArrayRef(values));|' \
  "$V2/validation/pybind.cpp"
sed -i 's|Input("alpha").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})|Input("alpha").ParamType(REQUIRED).DataType({ge::DT_INT64, ge::DT_INT64})|; s|.Format({ge::FORMAT_ND, ge::FORMAT_ND}).Scalar();|.Format({ge::FORMAT_ND, ge::FORMAT_ND}).ValueDepend(REQUIRED);|' \
  "$V2/answer/0/op_host/scale_custom_def.cpp"
sed -i 's|aGm.SetGlobalBuffer((__gm__ T\*)alpha, 1);|aGm.SetGlobalBuffer((__gm__ int64_t*)alpha, 1);|; s|T a = aGm.GetValue(0);|T a = static_cast<T>(static_cast<float>(aGm.GetValue(0)));|; s|GlobalTensor<T> xGm, yGm, aGm;|GlobalTensor<T> xGm, yGm;\n    GlobalTensor<int64_t> aGm;|' \
  "$V2/answer/0/op_kernel/scale_custom.cpp"
expect value_depend_int_array "correct 4/4" "$V2" "$V2/answer/0"
cp -r "$V2/answer/0" "$W/novd"
sed -i 's|.ValueDepend(REQUIRED);|;|' "$W/novd/op_host/scale_custom_def.cpp"
expect value_depend_missing "runtime-error 0/4" "$V2" "$W/novd" "is a int list, not a tensor"
# A binding that includes a PyTorch header the shim lacks: the system's real one conflicts, and the error says which.
cp -r "$T" "$W/UnshimmedCase" && mkdir -p "$W/unshimmed" && mv "$W/UnshimmedCase" "$W/unshimmed/ScaleCustom"
sed -i '1i #include <c10/util/string_view.h>' "$W/unshimmed/ScaleCustom/validation/pybind.cpp"
expect unshimmed_header "compile-error 0/0" "$W/unshimmed/ScaleCustom" "$T/answer/0" \
  "includes <c10/util/string_view.h>, which the shim does not provide"
# A reference with more outputs than ModelNew returns: the harness's check_precision zips the two lists, so the first
# is compared (NPUKernelBench's CrossEntropyLoss returns 2 of 4); kgen does the same and says so.
cp -r "$T" "$W/ZipCase" && mkdir -p "$W/zip" && mv "$W/ZipCase" "$W/zip/ScaleCustom"
sed -i 's/        return x \* self.alpha/        return [x * self.alpha, x]/' "$W/zip/ScaleCustom/validation/module.py"
sed -i '/^def custom_check_precision/,$d' "$W/zip/ScaleCustom/validation/prepare_inputs.py"   # the harness's default rule
grep -q 'return \[x \* self.alpha, x\]' "$W/zip/ScaleCustom/validation/module.py" || { echo "FAIL: zip variant not written"; fail=1; }
expect zip_outputs "correct 4/4" "$W/zip/ScaleCustom" "$T/answer/0" "the first 1 compared"
# An output the binding zeroes keeps its zeros on the device: a kernel that atomically adds its result into it is
# right (NPUKernelBench's CoalesceSparse); into torch::empty's garbage it is not.
mkdir -p "$W/atomic" && cp -r "$T" "$W/atomic/ScaleCustom"
AT=$W/atomic/ScaleCustom
sed -i 's/            DataCopyPad(yGm\[off\], yl, params);/            SetAtomicAdd<T>();\n            DataCopyPad(yGm[off], yl, params);\n            SetAtomicNone();/' \
  "$AT/answer/0/op_kernel/scale_custom.cpp"
sed -i 's/    at::Tensor result = torch::empty_like(x);/    at::Tensor result = torch::empty_like(x);\n    result.zero_();/' "$AT/validation/pybind.cpp"
grep -q 'SetAtomicAdd' "$AT/answer/0/op_kernel/scale_custom.cpp" && grep -q 'result.zero_()' "$AT/validation/pybind.cpp" \
  || { echo "FAIL: atomic variant not written"; fail=1; }
expect atomic_into_zeros "correct 4/4" "$AT" "$AT/answer/0"
sed -i 's/    result.zero_();//' "$AT/validation/pybind.cpp"
expect atomic_into_garbage "wrong-answer 0/4" "$AT" "$AT/answer/0"
# A task folder the harness cannot read: a precise error, exit 2 from run-level tools.
mkdir -p "$W/Broken/validation"
printf 'import torch\nclass Model:\n    pass\n' > "$W/Broken/validation/module.py"
printf 'case_id;input_shape\n' > "$W/Broken/validation/test_cases.csv"
"$KGEN" eval --task "$W/Broken" --candidate "$T/answer/0" --json > "$W/broken.json" 2>&1
if grep -q 'test_cases.csv:1: no test cases' "$W/broken.json"; then echo "ok: a task without cases is an error[task]"
else echo "FAIL: broken task"; head -c 1500 "$W/broken.json"; fail=1; fi
# Tensor lists (DYNAMIC inputs and output, ListTensorDesc and the raw pointer table in the kernel, std::vector
# arguments and results in the binding): a kernel that skips the list's tail is wrong.
L=$SRC/tests/data/npukb/tasks/level2/Foreach/AxpyListCustom
cp -r "$L/answer/0" "$W/listhead"
sed -i 's/i += GetBlockNum()/i += 1000/; s/context->SetBlockDim(count < cores ? count : cores);/context->SetBlockDim(1);/' \
  "$W/listhead/op_kernel/axpy_list_custom.cpp" "$W/listhead/op_host/axpy_list_custom.cpp"
expect list_head_only "wrong-answer 1/4" "$L" "$W/listhead"
# In place: a kernel that writes its result into its input list x1, and a binding that returns x1; on the chip the
# input is the tensor's own memory, so the caller sees the kernel's writes.
cp -r "$L" "$W/AxpyListCustom"
sed -i 's/return result;/return x1;/' "$W/AxpyListCustom/validation/pybind.cpp"
sed -i 's/yGm.SetGlobalBuffer(yList.GetDataPtr<T>(i), n);/yGm.SetGlobalBuffer(x1List.GetDataPtr<T>(i), n);/' \
  "$W/AxpyListCustom/answer/0/op_kernel/axpy_list_custom.cpp"
expect list_in_place "correct 4/4" "$W/AxpyListCustom" "$W/AxpyListCustom/answer/0"
# A DYNAMIC ref parameter: the OpDef's output list named as its input list x1, so the generated aclnn function takes
# x1 once and the op writes its tensors in place (NPUKernelBench's ScatterList); the binding returns x1.
mkdir -p "$W/reflist" && cp -r "$L" "$W/reflist/AxpyListCustom"
RL=$W/reflist/AxpyListCustom
sed -i 's/this->Output("y").ParamType(DYNAMIC)/this->Output("x1").ParamType(DYNAMIC)/' "$RL/answer/0/op_host/axpy_list_custom.cpp"
sed -i 's/    EXEC_NPU_CMD(aclnnCustomOp, in1, in2, alpha, out);/    EXEC_NPU_CMD(aclnnCustomOp, in1, in2, alpha);/; s/    return result;/    return x1;/' \
  "$RL/validation/pybind.cpp"
grep -q 'Output("x1")' "$RL/answer/0/op_host/axpy_list_custom.cpp" || { echo "FAIL: reflist variant not written"; fail=1; }
expect list_ref_parameter "correct 4/4" "$RL" "$RL/answer/0"
# A list passed to an input the OpDef does not declare DYNAMIC: the op's error, naming the param.
cp -r "$L/answer/0" "$W/notdynamic"
sed -i '0,/ParamType(DYNAMIC)/s//ParamType(REQUIRED)/' "$W/notdynamic/op_host/axpy_list_custom.cpp"
expect list_not_dynamic "runtime-error 0/4" "$L" "$W/notdynamic" "not DYNAMIC"
# NPUKernelBench's Foreach idioms (ScaleSigmoidListCustom, passing in the checkout run below): a ScalarList() input
# fed an at::ArrayRef<at::Scalar> read with Tensor::accessor, AscendC APIs passed by address as template arguments,
# ORIG_DTYPE_X choosing the float16 path, a whole-tensor Sigmoid over a partly filled buffer. Broken one at a time:
S=$SRC/tests/data/npukb/tasks/level2/Foreach/ScaleSigmoidListCustom
cp -r "$S/answer/0" "$W/notscalarlist"   # the OpDef does not say ScalarList(): a list of scalars is no tensor
sed -i 's/this->Input("scales").ScalarList()/this->Input("scales")/' "$W/notscalarlist/op_host/scale_sigmoid_list_custom.cpp"
expect scalar_list_undeclared "runtime-error 0/4" "$S" "$W/notscalarlist" "is a scalar list, not a tensor"
cp -r "$S" "$W/ScaleSigmoidListCustom"   # accessor<double> of a float tensor: torch's dtype check
sed -i 's/accessor<float, 1>/accessor<double, 1>/' "$W/ScaleSigmoidListCustom/validation/pybind.cpp"
expect accessor_dtype "compile-error 0/0" "$W/ScaleSigmoidListCustom" "$S/answer/0" "expected scalar type Double but found Float"
cp -r "$S/answer/0" "$W/nofp16path"      # without the ORIG_DTYPE_X branch float16 data is read as float
sed -i 's/#if ORIG_DTYPE_X == DT_FLOAT16/#if ORIG_DTYPE_X == DT_BF16/' "$W/nofp16path/op_kernel/scale_sigmoid_list_custom.cpp"
expect orig_dtype_path "runtime-error 2/4" "$S" "$W/nofp16path"
# Scalar() inputs only (NPUKernelBench's Arange): the output tensor's dtype selects the OpDef column, and the scalar
# arrives in that column's dtype (FillCustom passes its int32 and float32 cases in the checkout run below). An OpDef
# whose output has no int32 column fails those cases with the op's error.
F=$SRC/tests/data/npukb/tasks/level1/TensorCreation/FillCustom
cp -r "$F/answer/0" "$W/nointout"
sed -i 's/this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_INT32})/this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT})/' \
  "$W/nointout/op_host/fill_custom.cpp"
expect scalar_only_output_column "runtime-error 2/4" "$F" "$W/nointout" "in the OpDef column used"
# The tree as a suite, read unchanged: ids <Category>/<Op>, the level from levelN, a case per test_cases.csv row.
out=$("$KGEN" tasks list --suite "$SRC/tests/data/npukb" 2>&1)
if grep -Eq '^Foreach/AxpyListCustom +2 +4 +NPUKernelBench' <<<"$out" && grep -Eq '^Math/ScaleCustom +1 +4 +NPUKernelBench' <<<"$out" \
   && grep -Eq '^TensorCreation/FillCustom +1 +4 +NPUKernelBench' <<<"$out" \
   && grep -q '^4 NPUKernelBench task folders' <<<"$out"; then echo "ok: tasks list reads the NPUKernelBench layout"
else echo "FAIL: tasks list"; echo "$out"; fail=1; fi
out=$("$KGEN" tasks check --suite "$SRC/tests/data/npukb/tasks" 2>&1)
if grep -q '^4 tasks, 16 cases checked.* 0 with problems' <<<"$out"; then echo "ok: tasks check runs every case's reference"
else echo "FAIL: tasks check"; echo "$out"; fail=1; fi
# A task folder with problems: no api_desc.md, and a case whose inputs the CPU cannot make (torch.randn of qint8).
mkdir -p "$W/suite/level1/Math" && cp -r "$T" "$W/suite/level1/Math/ScaleCustom"
rm "$W/suite/level1/Math/ScaleCustom/api_desc.md"
echo '4;[8];qint8;2' >> "$W/suite/level1/Math/ScaleCustom/validation/test_cases.csv"
out=$("$KGEN" tasks check --suite "$W/suite" 2>&1); st=$?
if [ $st = 1 ] && grep -q 'ScaleCustom/api_desc.md:1: missing' <<<"$out" \
   && grep -q 'prepare_inputs.py:[0-9]*: case 4: its inputs cannot be made on the CPU' <<<"$out"; then
  echo "ok: tasks check names a folder's problems with file:line"
else echo "FAIL: tasks check of a broken folder (status $st)"; echo "$out"; fail=1; fi
# The checkout script (kgen bench --generator answer): every answer passes every case — ScaleCustom's split op_host
# (OpDef / tiling + infershape by IMPL_OP_* / an aclnn layer that is not built), TilingParse compile info, Scalar()
# input, kernel chosen by name, ASSERT without ';', float32_t; AxpyListCustom's tensor lists; ScaleSigmoidListCustom's
# Foreach idioms; FillCustom's scalar-only inputs — with the totals,
# modeled speedups against eager PyTorch on the first case and NPUKernelBench's weighted score.
out=$(bash "$SRC/scripts/npukb_check.sh" "$SRC/tests/data/npukb" "$KGEN" 1 2>&1)
if grep -q '^total: 4/4 tasks pass every case, 16/16 cases pass' <<<"$out" \
   && grep -Eq '^L1 TensorCreation/FillCustom: correct 4/4 cases' <<<"$out" \
   && grep -Eq '^L2 Foreach/AxpyListCustom: correct 4/4 cases [0-9.]+x \(modeled\)' <<<"$out" \
   && grep -Eq '^L2 Foreach/ScaleSigmoidListCustom: correct 4/4 cases' <<<"$out" \
   && grep -q '^NPUKernelBench score .*: 100.0 = 0.4 x L1 100.0% + 0.6 x L2 100.0%' <<<"$out"; then echo "ok: npukb_check.sh"
else echo "FAIL: npukb_check.sh"; echo "$out" | tail -8; fail=1; fi
# An LLM writes the op project from the folder's own prompt (prompts/task_ascendc_npukb.md; kgen-fake-llm replies with
# the answer's files) and kgen generate judges it as the harness does; the tile target is refused with the reason.
FAKE=$(dirname "$KGEN")/kgen-fake-llm
/usr/bin/python3 - "$T/answer/0" > "$W/script.json" <<'PY'
import json, os, sys
root = sys.argv[1]
blocks = []
for sub in ("op_host", "op_kernel"):
    for n in sorted(os.listdir(os.path.join(root, sub))):
        if not n.startswith("aclnn_") and not n.endswith("_l0.cpp"):
            blocks.append(f"```cpp {sub}/{n}\n" + open(os.path.join(root, sub, n)).read() + "\n```")
print(json.dumps([{"content": "Here is the project.\n\n" + "\n\n".join(blocks), "times": -1}]))
PY
"$FAKE" --script "$W/script.json" --log "$W/llm.jsonl" --port-file "$W/port" --idle-exit 120 &
fake_pid=$!
for _ in $(seq 50); do [ -s "$W/port" ] && break; sleep 0.1; done
"$KGEN" generate --task Math/ScaleCustom --suite "$SRC/tests/data/npukb/tasks" --target ascendc --model fake-model \
  --base-url "http://127.0.0.1:$(cat "$W/port")/v1" --out "$W/gen" > "$W/gen.out" 2> "$W/gen.err"; st=$?
if [ $st = 0 ] && grep -q "round 0: correct" "$W/gen.err" && grep -q 'NPUKernelBench task `Math/ScaleCustom`' "$W/llm.jsonl" \
   && grep -q 'OP_ADD(ScaleCustom)' "$W/llm.jsonl"; then echo "ok: kgen generate on an NPUKernelBench folder"
else echo "FAIL: kgen generate on an NPUKernelBench folder (status $st)"; tail -5 "$W/gen.err"; fail=1; fi
"$KGEN" generate --task "$T" --target tile --model fake-model --base-url "http://127.0.0.1:$(cat "$W/port")/v1" \
  --out "$W/gen2" > /dev/null 2> "$W/gen2.err"; st=$?
if [ $st != 0 ] && grep -q 'generate it with --target ascendc' "$W/gen2.err"; then echo "ok: the tile target refused"
else echo "FAIL: tile target on an NPUKernelBench folder (status $st)"; cat "$W/gen2.err"; fail=1; fi
kill $fake_pid 2>/dev/null
exit $fail
