#!/usr/bin/env bash
# kgen op run end to end: tests/data/op/add_tiny (msopgen layout) and add_tiny_flat (side by side) against numpy,
# the build cache, --json, and negative variants (each a copy of add_tiny with one sed) that must fail with
# their category and the project's own file:line.   Usage: op_run_test.sh KGEN SOURCE_DIR
set -u
KGEN=$1
SRC=$2
PY=/usr/bin/python3
W=$(mktemp -d /tmp/kgen-op-run-test.XXXXXX)
trap 'rm -rf "$W"' EXIT
export KGEN_CACHE=$W/cache
BASE=$SRC/tests/data/op/add_tiny
fail=0
pass=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && echo "$2" | head -30; }

$PY - "$W" <<'PY'
import sys, numpy as np
w = sys.argv[1]
rng = np.random.default_rng(1)
np.save(f"{w}/x.npy", rng.standard_normal(2048).astype(np.float32))
np.save(f"{w}/y.npy", rng.standard_normal(2048).astype(np.float32))
np.save(f"{w}/xh.npy", rng.standard_normal((4, 512)).astype(np.float16))
np.save(f"{w}/yh.npy", rng.standard_normal((4, 512)).astype(np.float16))
np.save(f"{w}/xi.npy", np.arange(2048, dtype=np.int32))
np.save(f"{w}/x100.npy", rng.standard_normal(100).astype(np.float32))
PY

check() {   # check NAME OUTDIR XFILE YFILE ALPHA
  $PY - "$2/z.npy" "$W/$3" "$W/$4" "$5" <<'PY'
import sys, numpy as np
z = np.load(sys.argv[1]); x = np.load(sys.argv[2]); y = np.load(sys.argv[3]); a = float(sys.argv[4])
ref = (x.astype(np.float32) + np.asarray(a, dtype=x.dtype).astype(np.float32) * y.astype(np.float32))
tol = 1e-5 if x.dtype == np.float32 else 2e-2
assert z.dtype == x.dtype and z.shape == x.shape, (z.dtype, z.shape)
err = np.abs(z.astype(np.float32) - ref).max()
assert err <= tol * (1 + np.abs(ref).max()), err
PY
}

# --- positive runs -------------------------------------------------------------------------------------------------
out=$("$KGEN" op run "$BASE" --input x="$W/x.npy" --input y="$W/y.npy" --attr alpha=0.5 --out "$W/o1" 2>&1)
[ $? -eq 0 ] && check f32 "$W/o1" x.npy y.npy 0.5 && ok "msopgen float32 alpha=0.5" || bad "msopgen float32" "$out"
out=$("$KGEN" op run "$BASE" --input x="$W/xh.npy" --input y="$W/yh.npy" --out "$W/o2" 2>&1)
[ $? -eq 0 ] && check f16 "$W/o2" xh.npy yh.npy 1.0 && ok "msopgen float16 default alpha" || bad "msopgen float16" "$out"
# The flat layout: the same three files side by side, under other names (the runner finds them by content).
mkdir -p "$W/flat"
cp "$BASE/op_host/add_tiny_custom.cpp" "$W/flat/add_tiny_host.cpp"
cp "$BASE/op_host/add_tiny_custom_tiling.h" "$W/flat/"
cp "$BASE/op_kernel/add_tiny_custom.cpp" "$W/flat/add_tiny_kernel.cpp"
out=$("$KGEN" op run "$W/flat" "$W/x.npy" "$W/y.npy" --attr alpha=-2 --out "$W/o3" 2>&1)
[ $? -eq 0 ] && check flat "$W/o3" x.npy y.npy -2 && ok "side-by-side, positional inputs" || bad "side-by-side" "$out"
out=$("$KGEN" op run "$BASE" --input x="$W/x.npy" --input y="$W/y.npy" --attr alpha=0.5 --out "$W/o4" 2>&1)
echo "$out" | grep -q "(cached build)" && ok "second run uses the cache" || bad "cache" "$out"
js=$("$KGEN" op run "$BASE" --input x="$W/x.npy" --input y="$W/y.npy" --out "$W/o5" --json 2>/dev/null)
echo "$js" | $PY -c 'import json,sys; j=json.load(sys.stdin); assert j["ok"] and j["block_dim"]==8 and j["outputs"][0]["shape"]==[2048] and j["outputs"][0]["dtype"]=="float32", j' \
  && ok "--json summary" || bad "--json" "$js"
js=$("$KGEN" op run "$BASE" --input x="$W/xi.npy" --input y="$W/xi.npy" --out "$W/o6" --json 2>/dev/null)
echo "$js" | $PY -c 'import json,sys; j=json.load(sys.stdin); assert not j["ok"] and j["exit"]==3 and j["errors"][0]["category"]=="op-def", j' \
  && ok "--json error" || bad "--json error" "$js"

# The kernel may name the tiling struct, as CANN's kernel build declares it at global scope.
rm -rf "$W/named"; cp -r "$BASE" "$W/named"
sed -i 's/    op.Init(x, y, z, tilingData.totalLength,/    const AddTinyCustomTilingData* td = \&tilingData;\n    op.Init(x, y, z, td->totalLength,/' "$W/named/op_kernel/add_tiny_custom.cpp"
out=$("$KGEN" op run "$W/named" --input x="$W/x.npy" --input y="$W/y.npy" --attr alpha=0.5 --out "$W/o7" 2>&1); rc=$?
grep -q "AddTinyCustomTilingData\* td" "$W/named/op_kernel/add_tiny_custom.cpp" && [ $rc -eq 0 ] && check named "$W/o7" x.npy y.npy 0.5 \
  && ok "kernel names the tiling struct" || bad "kernel names the tiling struct" "$out"

# The build cache key covers every file of the project: editing a header in a subfolder (an .inl) rebuilds the kernel.
rm -rf "$W/inl"; cp -r "$BASE" "$W/inl"; mkdir -p "$W/inl/op_kernel/detail"
echo 'constexpr float kScale = 1.0f;' > "$W/inl/op_kernel/detail/scale.inl"
sed -i 's|        AscendC::Muls(yLocal, yLocal, this->alpha, this->tileLength);|        AscendC::Muls(yLocal, yLocal, static_cast<DTYPE_Y>(static_cast<float>(this->alpha) * kScale), this->tileLength);|; 1a #include "detail/scale.inl"' "$W/inl/op_kernel/add_tiny_custom.cpp"
"$KGEN" op run "$W/inl" --input x="$W/x.npy" --input y="$W/y.npy" --attr alpha=0.5 --out "$W/o9a" > /dev/null 2>&1 \
  && check inl "$W/o9a" x.npy y.npy 0.5 && ok "a kernel with a subfolder .inl" || bad "subfolder .inl"
echo 'constexpr float kScale = 2.0f;' > "$W/inl/op_kernel/detail/scale.inl"
out=$("$KGEN" op run "$W/inl" --input x="$W/x.npy" --input y="$W/y.npy" --attr alpha=0.5 --out "$W/o9b" 2>&1)
! echo "$out" | grep -q "(cached build)" && check inl2 "$W/o9b" x.npy y.npy 1.0 \
  && ok "editing the .inl rebuilds (alpha 0.5 x kScale 2 = 1)" || bad "the .inl edit was not rebuilt" "$out"

# No network in the child: a TilingFunc that sees any interface besides the loopback fails (skipped where the kernel
# does not allow network namespaces).
if unshare -n true 2>/dev/null || unshare -rn true 2>/dev/null; then
  rm -rf "$W/nonet"; cp -r "$BASE" "$W/nonet"
  sed -i 's|#include "register/op_def_registry.h"|#include "register/op_def_registry.h"\n#include <net/if.h>|; s|    AddTinyCustomTilingData tiling;|    AddTinyCustomTilingData tiling;\n    int ifs = 0;\n    if (struct if_nameindex* n = if_nameindex()) { for (auto* p = n; p->if_index; ++p) ++ifs; if_freenameindex(n); }\n    if (ifs > 1) return ge::GRAPH_FAILED;|' "$W/nonet/op_host/add_tiny_custom.cpp"
  out=$("$KGEN" op run "$W/nonet" --input x="$W/x.npy" --input y="$W/y.npy" --attr alpha=0.5 --out "$W/o8" 2>&1); rc=$?
  grep -q if_nameindex "$W/nonet/op_host/add_tiny_custom.cpp" && [ $rc -eq 0 ] && check nonet "$W/o8" x.npy y.npy 0.5 \
    && ok "the op runs without network (only a loopback interface)" || bad "no network" "$out"
else
  echo "skip no-network check: network namespaces not available here"
fi

# --- negatives: expect CATEGORY FILE LINE-REGEX --------------------------------------------------------------------
variant() {   # variant NAME FILE(relative) SED
  rm -rf "$W/$1"; cp -r "$BASE" "$W/$1"; sed -i "$3" "$W/$1/$2"
}
expect() {   # expect NAME EXIT CATEGORY FILE PATTERN(grep -n in FILE for the line) -- ARGS...
  local name=$1 code=$2 cat=$3 file=$4 pat=$5; shift 6
  local line; line=$(grep -n -m1 -E -- "$pat" "$file" | cut -d: -f1)
  local o; o=$("$KGEN" op run "$@" --out "$W/neg-$name" 2>&1); local rc=$?
  local first; first=$(echo "$o" | grep -m1 '^error\[')
  if [ $rc -eq "$code" ] && [[ "$first" == "error[$cat] $file:$line:"* ]]; then ok "$name: $first"
  else bad "$name (rc $rc, want error[$cat] $file:$line)" "$o"; fi
}
H=op_host/add_tiny_custom.cpp
K=op_kernel/add_tiny_custom.cpp
T=op_host/add_tiny_custom_tiling.h
XY=(--input x="$W/x.npy" --input y="$W/y.npy")

variant tiling_fail $H 's/    context->SetBlockDim(blockDim);/    return ge::GRAPH_FAILED;/'
expect tiling_fail 3 tiling "$W/tiling_fail/$H" 'ge::graphStatus TilingFunc' -- "$W/tiling_fail" "${XY[@]}"
expect tiling_shape 3 tiling "$BASE/$H" 'ge::graphStatus TilingFunc' -- "$BASE" --input x="$W/x100.npy" --input y="$W/x100.npy"
variant block0 $H 's/context->SetBlockDim(blockDim);/context->SetBlockDim(0);/'
expect block0 3 block-dim "$W/block0/$H" 'SetBlockDim\(' -- "$W/block0" "${XY[@]}"
variant block_big $H 's/context->SetBlockDim(blockDim);/context->SetBlockDim(70000);/'
expect block_big 3 block-dim "$W/block_big/$H" 'SetBlockDim\(' -- "$W/block_big" "${XY[@]}"
variant tiling_big $T 's/TILING_DATA_FIELD_DEF(float, alpha);/TILING_DATA_FIELD_DEF(float, alpha);\n  TILING_DATA_FIELD_DEF_ARR(uint32_t, 8192, big);/'
expect tiling_big 3 tiling "$W/tiling_big/$H" 'SaveToBuffer\(' -- "$W/tiling_big" "${XY[@]}"
variant kernel_name $K 's/void add_tiny_custom(/void add_tiny(/'
expect kernel_name 3 kernel-name "$W/kernel_name/$K" 'extern "C"' -- "$W/kernel_name" "${XY[@]}"
variant host_compile $H 's/context->SetBlockDim(blockDim);/context->SetBlockDims(blockDim);/'
expect host_compile 3 compile "$W/host_compile/$H" 'SetBlockDims' -- "$W/host_compile" "${XY[@]}"
variant kernel_compile $K 's/AscendC::Add(zLocal/AscendC::Addd(zLocal/'
expect kernel_compile 3 compile "$W/kernel_compile/$K" 'AscendC::Addd' -- "$W/kernel_compile" "${XY[@]}"
expect input_dtype 3 op-def "$BASE/$H" 'Input\("x"\)' -- "$BASE" --input x="$W/xi.npy" --input y="$W/xi.npy"
expect input_count 3 op-def "$BASE/$H" 'Input\("y"\)' -- "$BASE" --input x="$W/x.npy"
variant attr_required $H 's/AttrType(OPTIONAL).Float(1.0)/AttrType(REQUIRED).Float()/'
expect attr_required 3 op-def "$W/attr_required/$H" 'Attr\("alpha"\)' -- "$W/attr_required" "${XY[@]}"
variant input_format $H '0,/FORMAT_ND, ge::FORMAT_ND})$/s//FORMAT_FRACTAL_NZ, ge::FORMAT_FRACTAL_NZ})/'
expect input_format 3 op-def "$W/input_format/$H" 'Input\("x"\)' -- "$W/input_format" "${XY[@]}"
expect attr_bad 3 op-def "$BASE/$H" 'Attr\("alpha"\)' -- "$BASE" "${XY[@]}" --attr alpha=abc
# Each block writes the next block's part: the last one runs a whole block past z's end, beyond the 512-byte
# rounding of the device allocation (docs/emulator.md "Memory"), which a write inside the rounding is not.
variant gm_past_block $K 's/(__gm__ DTYPE_Z\*)z + this->blockLength \* AscendC::GetBlockIdx()/(__gm__ DTYPE_Z*)z + this->blockLength * (AscendC::GetBlockIdx() + 1)/'
line=$(grep -n -m1 'AscendC::DataCopy(zGm' "$W/gm_past_block/$K" | cut -d: -f1)
o=$("$KGEN" op run "$W/gm_past_block" "${XY[@]}" --out "$W/neg-gm" 2>&1); rc=$?
if [ $rc -eq 3 ] && grep -q "^error\[gm-out-of-bounds\] add_tiny_custom.cpp:$line block 7 DataCopy: writes" <<<"$o"; then
  ok "gm_past_block: $(head -1 <<<"$o")"
else bad "gm_past_block (rc $rc, want error[gm-out-of-bounds] add_tiny_custom.cpp:$line block 7)" "$o"; fi

# Tensor lists on the command line: DYNAMIC inputs take FILE,FILE,...; a DYNAMIC output is written as y.K.npy.
L=$SRC/tests/data/npukb/tasks/level2/Foreach/AxpyListCustom/answer/0
$PY - "$W" <<'PY'
import sys, numpy as np
w = sys.argv[1]
np.save(f"{w}/l1.npy", np.arange(12, dtype=np.float32).reshape(3, 4))
np.save(f"{w}/l2.npy", np.full((3, 4), 2, np.float32))
np.save(f"{w}/al.npy", np.array([0.5], np.float32))
PY
o=$("$KGEN" op run "$L" --input "x1=$W/l1.npy,$W/x100.npy" --input "x2=$W/l2.npy,$W/x100.npy" --input "alpha=$W/al.npy" \
      --output-shape "y=3,4;100" --out "$W/list" 2>&1); rc=$?
if [ $rc -eq 0 ] && $PY -c "
import numpy as np, sys; w = sys.argv[1]
a = np.load(w + '/l1.npy') + np.load(w + '/l2.npy') * 0.5
b = np.load(w + '/x100.npy') * 1.5
assert np.allclose(np.load(w + '/list/y.0.npy'), a) and np.allclose(np.load(w + '/list/y.1.npy'), b, rtol=1e-6)
" "$W"; then ok "tensor-list inputs and output (y.0.npy, y.1.npy)"
else bad "tensor-list op run (rc $rc)" "$o"; fi
o=$("$KGEN" op run "$L" --input "x1=$W/l1.npy,$W/xh.npy" --input "x2=$W/l2.npy,$W/xh.npy" --input "alpha=$W/al.npy" \
      --output-shape "y=3,4;4,512" --out "$W/list2" 2>&1); rc=$?
if [ $rc -eq 3 ] && grep -q "error\[op-def\] .*axpy_list_custom.cpp:[0-9]*: the tensors of list 'x1' have different dtypes (float32 at 0, float16 at 1)" <<<"$o"; then
  ok "tensor list of mixed dtypes: $(head -1 <<<"$o" | cut -c1-90)"
else bad "tensor list of mixed dtypes (rc $rc)" "$o"; fi

# The builds above precompiled kgen's first headers once (op/build.cpp ensure_pch): the kernel's kernel_operator.h
# always, the host's register/tilingdata_base.h where the host starts with its tiling header.
if ls "$KGEN_CACHE"/op/pch-*/kernel_operator.h.gch >/dev/null 2>&1; then ok "kernel_operator.h precompiled"
else bad "kernel_operator.h precompiled" "$(ls -R "$KGEN_CACHE/op" | head -20)"; fi
if ls "$KGEN_CACHE"/op/pch-*/register/tilingdata_base.h.gch >/dev/null 2>&1; then ok "register/tilingdata_base.h precompiled"
else bad "register/tilingdata_base.h precompiled" "$(ls -R "$KGEN_CACHE/op" | head -20)"; fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
