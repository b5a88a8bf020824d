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
# The answer: split op_host (OpDef / tiling + infershape by IMPL_OP_* / an aclnn layer that is not built), a
# TilingParse compile info, a Scalar() input, the kernel chosen by name, ASSERT without ';', float32_t.
expect answer "correct 4/4" "$T" "$T/answer/0"
# A wrong kernel: custom_check_precision fails the cases.
cp -r "$T/answer/0" "$W/adds"
sed -i 's/Muls(yl, xl, a, n);/Adds(yl, xl, a, n);/' "$W/adds/op_kernel/scale_custom.cpp"
expect wrong "wrong-answer 0/4" "$T" "$W/adds" "custom_check_precision fails"
# The tiling function registered nowhere: every case fails with the op's error, not a crash.
cp -r "$T/answer/0" "$W/notiling"
sed -i 's/    .Tiling(Tiling4Scale)//' "$W/notiling/op_host/scale_custom.cpp"
expect notiling "runtime-error 0/4" "$T" "$W/notiling" "sets no tiling function"
# The aclnn layer built after all (a built file includes it): what it includes is checked, CANN's kernels refused.
cp -r "$T/answer/0" "$W/layer"
echo '#include "aclnn_scale_custom.cpp"' >> "$W/layer/op_host/scale_custom.cpp"
expect layer_included "cheating 0/0" "$T" "$W/layer" "aclnn_kernels/contiguous.h"
# A case the OpDef has no column for (bfloat16) fails alone; the others still pass.
cp -r "$T" "$W/ScaleCustom"
echo '4;[8];bfloat16;2' >> "$W/ScaleCustom/validation/test_cases.csv"
expect bf16_case "runtime-error 4/5" "$W/ScaleCustom" "$T/answer/0" "bfloat16"
# A task folder the harness cannot read: a precise error, exit 2 from run-level tools.
mkdir -p "$W/Broken/validation"
printf 'import torch\nclass Model:\n    pass\n' > "$W/Broken/validation/module.py"
printf 'case_id;input_shape\n' > "$W/Broken/validation/test_cases.csv"
"$KGEN" eval --task "$W/Broken" --candidate "$T/answer/0" --json > "$W/broken.json" 2>&1
if grep -q 'test_cases.csv:1: no test cases' "$W/broken.json"; then echo "ok: a task without cases is an error[task]"
else echo "FAIL: broken task"; head -c 1500 "$W/broken.json"; fail=1; fi
# Tensor lists (DYNAMIC inputs and output, ListTensorDesc and the raw pointer table in the kernel, std::vector
# arguments and results in the binding): every case passes; a kernel that skips the list's tail is wrong.
L=$SRC/tests/data/npukb/tasks/level2/Foreach/AxpyListCustom
expect list_answer "correct 4/4" "$L" "$L/answer/0"
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
# A list passed to an input the OpDef does not declare DYNAMIC: the op's error, naming the param.
cp -r "$L/answer/0" "$W/notdynamic"
sed -i '0,/ParamType(DYNAMIC)/s//ParamType(REQUIRED)/' "$W/notdynamic/op_host/axpy_list_custom.cpp"
expect list_not_dynamic "runtime-error 0/4" "$L" "$W/notdynamic" "not DYNAMIC"
# The checkout script on kgen's own tree.
out=$(bash "$SRC/scripts/npukb_check.sh" "$SRC/tests/data/npukb" "$KGEN" 1 2>&1)
if grep -q '^total: 2/2 tasks pass every case, 8/8 cases pass' <<<"$out"; then echo "ok: npukb_check.sh"
else echo "FAIL: npukb_check.sh"; echo "$out" | tail -5; fail=1; fi
exit $fail
