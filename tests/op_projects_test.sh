#!/bin/bash
# The op projects of examples/op_projects end to end: random inputs (tests/op_compare.py, seeded), `kgen op run
# --timing-check` for the float32 cases (the timing-only trace must equal the full run's),
# outputs compared with PyTorch; two shapes per project (one whose rows / length are not a multiple of 32 bytes)
# and float16 (at the awkward shape) where the project supports it. Then `kgen op new` projects, run as generated: every output must be
# the elementwise sum of the inputs; and `kgen op new` refuses to overwrite a directory.
# Usage: op_projects_test.sh KGEN SOURCE_DIR
set -u
KGEN=${1:?usage: op_projects_test.sh KGEN SOURCE_DIR}
SRC=${2:?usage: op_projects_test.sh KGEN SOURCE_DIR}
KGEN=$(cd "$(dirname "$KGEN")" && pwd)/$(basename "$KGEN")
SRC=$(cd "$SRC" && pwd)
PY=/usr/bin/python3
CMP="$SRC/tests/op_compare.py"
EX="$SRC/examples/op_projects"

if ! $PY -c 'import torch, numpy' 2>/dev/null; then
  echo "SKIP: $PY has no torch/numpy"
  exit 0
fi
WORK=$(mktemp -d /tmp/kgen-op-projects-XXXXXX)
export KGEN_CACHE="$WORK/cache"
trap 'rm -rf "$WORK"' EXIT
FAILS=0
N=0

# run_case PROJECT_DIR OP DTYPE SHAPE [op_compare gen options...]
run_case() {
  local proj=$1 op=$2 dt=$3 shape=$4
  shift 4
  N=$((N + 1))
  local d="$WORK/case$N"
  local args
  if ! args=$($PY "$CMP" gen "$op" "$dt" "$shape" "$d" "$@"); then
    echo "FAIL $op $dt [$shape]: input generation failed"
    FAILS=$((FAILS + 1))
    return
  fi
  local -a argv
  mapfile -t argv <<<"$args"
  local tc=()
  [ "$dt" != float16 ] && tc=(--timing-check)   # the timing-only trace's equality is a property of the code path,
                                                # not of the dtype: float32 cases check it (candidates and timing too)
  if ! "$KGEN" op run "$proj" "${argv[@]}" --out "$d/out" "${tc[@]}" >"$d/log" 2>&1; then
    echo "FAIL $op $dt [$shape]: kgen op run failed:"
    sed 's/^/    /' "$d/log" | head -20
    FAILS=$((FAILS + 1))
    return
  fi
  if [ ${#tc[@]} -gt 0 ] && ! grep -q "timing check: the timing-only trace equals the full run's" "$d/log"; then
    echo "FAIL $op $dt [$shape]: $(grep "timing check" "$d/log" || echo "no timing check line")"
    FAILS=$((FAILS + 1))
  fi
  CHECKS+=("$d" "$d/out")   # compared with PyTorch at the end, in one call (torch imported once)
}
CHECKS=()

# float32 at both shapes; float16 at the awkward one (tails, padded rows, chunks), where a dtype slip shows first
for dt in float32 float16; do
  [ $dt = float32 ] && run_case "$EX/leaky_relu" leaky_relu $dt 64,256 --attr negative_slope=0.2
  run_case "$EX/leaky_relu" leaky_relu $dt 37,129                       # 4773 elements: tail, default slope
  [ $dt = float32 ] && run_case "$EX/add_broadcast" add_broadcast $dt 96,512
  run_case "$EX/add_broadcast" add_broadcast $dt 50,77                  # rows of 77 elements: padded UB rows
  run_case "$EX/reduce_sum" reduce_sum $dt 64,256                       # tiling key 1 / 2 (per dtype)
  run_case "$EX/reduce_sum" reduce_sum $dt 45,3001                      # rows longer than one tile: chunked
  [ $dt = float32 ] && run_case "$EX/softmax" softmax $dt 64,256
  run_case "$EX/softmax" softmax $dt 33,1000
  [ $dt = float32 ] && run_case "$EX/log_softmax" log_softmax $dt 64,256   # LogSoftMax API + LogSoftMaxTilingFunc
  run_case "$EX/log_softmax" log_softmax $dt 45,1001                    # rows of 1001: padded, tmp within min/max
  [ $dt = float32 ] && run_case "$EX/rms_norm" rms_norm $dt 64,256      # RmsNorm API + GetRmsNormTilingInfo
  run_case "$EX/rms_norm" rms_norm $dt 37,300 --attr epsilon=0.001      # rows of 300: originalHLength < hLength
  run_case "$EX/matmul" matmul $dt 64,128,96                            # with bias
  run_case "$EX/matmul" matmul $dt 100,70,50 --no-bias                  # unaligned M, K, N, no bias
done
run_case "$EX/layer_norm" layer_norm float32 64,256
run_case "$EX/layer_norm" layer_norm float32 37,300 --attr epsilon=0.001
run_case "$EX/layer_norm" layer_norm float32 20,60                    # one 64-column chunk
# several double-buffered tiles per core
run_case "$EX/leaky_relu" leaky_relu float32 512,1001
run_case "$EX/softmax" softmax float16 2000,300
run_case "$EX/layer_norm" layer_norm float32 2000,300
run_case "$EX/log_softmax" log_softmax float16 2000,300
run_case "$EX/rms_norm" rms_norm float32 2000,300                     # full and two kinds of last tiles
run_case "$EX/rms_norm" rms_norm float16 4,33,100                     # 3-d input

# A kernel written as Catlass writes them (tile_matmul/op_kernel): built per core type (g_coreType as a template's
# default argument), in-class explicit specializations, TPipe::Destroy before its tensors' use, L0C unit flags,
# tiles computed past the matrix's edge. float16 only; the timing check on the unaligned shape.
run_case "$EX/tile_matmul" matmul float16 100,96,72 --no-bias          # a last tile of 4 rows, N not a multiple of 16
run_case "$EX/tile_matmul" matmul float16 64,256,128 --no-bias
mapfile -t TM <<<"$($PY "$CMP" gen matmul float16 100,96,72 "$WORK/tm_in" --no-bias)"
if "$KGEN" op run "$EX/tile_matmul" "${TM[@]}" --out "$WORK/tm_timing" --timing-check >"$WORK/tm_timing.log" 2>&1 &&
   grep -q "timing check: the timing-only trace equals the full run's" "$WORK/tm_timing.log"; then
  echo "ok   tile_matmul: the timing-only trace equals the full run's"
else
  echo "FAIL tile_matmul --timing-check:"; sed 's/^/    /' "$WORK/tm_timing.log" | head; FAILS=$((FAILS + 1))
fi
# expect_error NAME SED-EXPRESSION PATTERN: a variant of tile_matmul's kernel fails with PATTERN in its message.
expect_error() {
  local name=$1 expr=$2 pat=$3 v="$WORK/tm_$1"
  cp -r "$EX/tile_matmul" "$v"
  sed -i "$expr" "$v/op_kernel/tile_matmul.cpp"
  N=$((N + 1))
  if "$KGEN" op run "$v" "${TM[@]}" --out "$v/out" >"$v/log" 2>&1; then
    echo "FAIL tile_matmul $name: ran without an error"; FAILS=$((FAILS + 1))
  elif ! grep -q -- "$pat" "$v/log"; then
    echo "FAIL tile_matmul $name: no '$pat' in:"; sed 's/^/    /' "$v/log" | head; FAILS=$((FAILS + 1))
  else
    echo "ok   tile_matmul $name: $(grep -m1 -- "$pat" "$v/log" | cut -c1-150)"
  fi
}
# No unit flag on the Fixpipe: nothing orders the M pipe's writes of L0C before FIX reads them.
expect_error no_unit_flag 's/out.unitFlag = 3;/out.unitFlag = 0;/' "error\[race\].*Fixpipe: pipe FIX reads L0C"
# One row of A short: the tile's last row of C is computed from garbage, and it is moved out.
expect_error short_rows 's/Nd2NzParams(1, rows, p.k/Nd2NzParams(1, rows - 1, p.k/' \
  "error\[uninit-read\].*Mmad: reads on-chip bytes nothing wrote.*reach Fixpipe"
# Declared MIX: the vector cores run the vector build, which has no code (the kernel defines no AIV path).
expect_error declared_mix 's/    GET_TILING_DATA(t, tiling);/    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);\n    GET_TILING_DATA(t, tiling);/' \
  "the kernel runs on AIV cores, but its AIV build"

# kgen op new: the generated projects run as they are.
cd "$WORK" || exit 1
if "$KGEN" op new add --inputs x,y,w --outputs z --attrs alpha:float=0.5,k:int=2 -o "$WORK/new_add" >"$WORK/new.log" 2>&1; then
  run_case "$WORK/new_add" "sum:x,y,w:z" float32 1000,3 --attr alpha=0.25
  run_case "$WORK/new_add" "sum:x,y,w:z" float32 4096
else
  echo "FAIL kgen op new add:"; sed 's/^/    /' "$WORK/new.log"; FAILS=$((FAILS + 1))
fi
if "$KGEN" op new ScaleCopy --inputs src --outputs dst,dst2 --dtype half >"$WORK/new2.log" 2>&1 &&
   [ -f "$WORK/scale_copy_custom/op_kernel/scale_copy_custom.cpp" ] &&
   grep -q 'OP_ADD(ScaleCopyCustom)' "$WORK/scale_copy_custom/op_host/scale_copy_custom.cpp"; then
  run_case "$WORK/scale_copy_custom" "sum:src:dst,dst2" float16 333,7
else
  echo "FAIL kgen op new ScaleCopy (default directory ./scale_copy_custom, op ScaleCopyCustom):"
  sed 's/^/    /' "$WORK/new2.log"; FAILS=$((FAILS + 1))
fi
# refuses to overwrite
if "$KGEN" op new add --inputs x --outputs z -o "$WORK/new_add" >"$WORK/new3.log" 2>&1; then
  echo "FAIL kgen op new overwrote an existing directory"; FAILS=$((FAILS + 1))
elif ! grep -q 'already exists' "$WORK/new3.log"; then
  echo "FAIL kgen op new on an existing directory: unexpected message:"; sed 's/^/    /' "$WORK/new3.log"
  FAILS=$((FAILS + 1))
else
  echo "ok   kgen op new refuses an existing directory"
fi
# bad attr spec is a usage error (exit 2)
"$KGEN" op new bad --inputs x --outputs z --attrs alpha:double=1 -o "$WORK/bad" >/dev/null 2>&1
if [ $? -ne 2 ] || [ -e "$WORK/bad" ]; then
  echo "FAIL kgen op new with an unknown attr type: expected exit 2 and no directory"; FAILS=$((FAILS + 1))
fi

# the outputs of every case that ran against PyTorch: one line per case, ok or FAIL
if [ ${#CHECKS[@]} -gt 0 ]; then
  $PY "$CMP" check "${CHECKS[@]}" > "$WORK/checks.log" 2>&1
  cat "$WORK/checks.log"
  bad=$(grep -c '^FAIL' "$WORK/checks.log")
  FAILS=$((FAILS + bad))
  [ $(($(grep -c '^ok   ' "$WORK/checks.log") + bad)) -eq $((${#CHECKS[@]} / 2)) ] || {
    echo "FAIL op_compare.py check did not report every case"; FAILS=$((FAILS + 1)); }
fi
echo "op projects: $((N - FAILS)) of $N cases passed"
[ "$FAILS" -eq 0 ]
