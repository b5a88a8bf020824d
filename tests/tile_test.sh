#!/usr/bin/env bash
# The tile language end to end through the CLI (docs/tile-language.md): `kgen tile check` on a clean program (exit 0,
# the summary line) and on a program with three errors (exit 3, three clang-style diagnostics: file:line:col exact,
# the source line, a caret under the column, a hint); `kgen tile compile -o DIR` writes the op project and
# `kgen op run` runs it against numpy (flat, f16, an attr, a row program with a resident weight); --dump-after
# check|plan_buffers|all, and an unknown pass (exit 2, the pass list); --emit mkb through `kgen op run-mkb`; a tile
# program as `kgen eval --candidate` (correct, and compile-error with the diagnostics); conversions the vector unit
# has no single Cast for, axis programs with broadcasts and inputs of the view's dims, and other operators outside
# the suite (tests/data/tile_ops) against PyTorch; a conv output dim that breaks its declared name
# (tests/data/tile_conv_crop); random conv geometries through the cube lowering.
# The whole expert library over the suite is tests/tile_expert_test.sh.
set -u
KGEN=$1
SRC=$2
PY=/usr/bin/python3

T=$(mktemp -d /tmp/kgen-tile-test-XXXXXX)
trap 'rm -rf "$T"' EXIT
export KGEN_CACHE=$T/cache
fails=0
check() {  # check NAME COMMAND...
  local name=$1; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
py_check() {  # py_check NAME ARGS... <<'PY' (the python script on stdin exits non-zero or raises on failure)
  local name=$1; shift
  if "$PY" - "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
cd "$T" || exit 1
cp "$SRC/kernels/activation/relu.tile" relu.tile

# ---- kgen tile check ----
"$KGEN" tile check relu.tile > check.out 2> check.err
rc=$?
check "check: clean program exits 0" test "$rc" = 0
check "check: summary line" grep -qx "relu.tile: ok — kernel relu (op ReluCustom), flat program, [0-9]* UB buffer(s)" check.out
check "check: nothing on stderr" test ! -s check.err

cat > bad.tile <<'EOF'
"""Three mistakes, each with a hint."""
kernel scaled(x: T[*n], alpha: f32) -> (y: T[*n]):
    dtype T in (f32, f17)
    for t in tiles(n):
        v = load(x[t], f32)
        store(y[t], sigmod(v) * alpha)
EOF
"$KGEN" tile check bad.tile > bad.out 2> bad.err
rc=$?
cat bad.err
check "check: three errors exit 3" test "$rc" = 3
check "check: nothing on stdout for a bad program" test ! -s bad.out
# Each diagnostic: header, the source line, a caret line (caret exactly under the column, tildes after), a hint.
py_check "check: three diagnostics, positions, caret lines and hints" <<'PY'
import re, sys
src = open("bad.tile").read().split("\n")
lines = open("bad.err").read().rstrip("\n").split("\n")
want = [("2:25", "attr 'alpha' has no default value", "alpha: f32 = "),
        ("3:22", "unknown dtype 'f17'", "did you mean 'f16'?"),
        ("6:21", "unknown function 'sigmod'", "did you mean 'sigmoid'?")]
assert len(lines) == 4 * len(want), f"{len(lines)} lines, want {4 * len(want)}"
for k, (where, msg, hint) in enumerate(want):
    head, text, caret, h = lines[4 * k: 4 * k + 4]
    assert head == f"bad.tile:{where}: error: {msg}", head
    line, col = map(int, where.split(":"))
    assert text == src[line - 1], (text, src[line - 1])
    assert re.fullmatch(" " * (col - 1) + r"\^~*", caret), repr(caret)
    assert col - 1 + len(caret.strip()) <= len(text), "the tildes run past the line"
    assert h.startswith("hint: ") and hint in h, h
PY
"$KGEN" tile check nosuch.tile > /dev/null 2> nosuchfile.err
check "check: unreadable file exits 2" test "$?" = 2
check "check: unreadable file message" grep -q "cannot read nosuch.tile" nosuchfile.err
"$KGEN" tile compile relu.tile > /dev/null 2> noout.err
check "compile without -o or --dump-after exits 2" test "$?" = 2
# The same program through compile: the same diagnostics, exit 3, no project.
"$KGEN" tile compile bad.tile -o badproj > /dev/null 2> bad2.err
rc=$?
check "compile: errors exit 3" test "$rc" = 3
check "compile: same diagnostics as check" cmp -s bad.err bad2.err
check "compile: no project for a bad program" test ! -e badproj

# ---- kgen tile compile -o DIR, kgen op run against numpy ----
compile() {  # compile PROGRAM DIR
  "$KGEN" tile compile "$1" -o "$2" > "$2.log" 2>&1
}
check "compile relu" compile relu.tile relu
check "compile: message" grep -q "wrote op project relu (op ReluCustom, kernel relu_custom) to relu" relu.log
for f in op_kernel/relu_custom.cpp op_kernel/kgen_tile.h op_host/relu_custom.cpp op_host/relu_custom_tiling.h \
         relu_custom.json; do
  check "compile: relu/$f" test -s "relu/$f"
done
check "compile: the kernel names the program" grep -q "from relu.tile" relu/op_kernel/relu_custom.cpp
check "compile: deterministic" bash -c "'$KGEN' tile compile relu.tile -o relu-again > /dev/null && diff -r relu relu-again > /dev/null"

"$PY" - <<'EOF'
import numpy as np
rng = np.random.default_rng(7)
np.save("x32.npy", rng.standard_normal((3, 1000)).astype(np.float32))     # 3000: a tail on most cores
np.save("x16.npy", rng.standard_normal((7, 333)).astype(np.float16))
np.save("xr.npy", rng.standard_normal((5, 300)).astype(np.float32))       # rows of 1200 bytes: padded in UB
np.save("w.npy", rng.standard_normal(300).astype(np.float32))
EOF
oprun() {  # oprun NAME PROJECT OUT ARGS... (the log in OUT.log)
  local name=$1 proj=$2 out=$3; shift 3
  "$KGEN" op run "$proj" "$@" --out "$out" > "$out.log" 2>&1
  local rc=$?
  check "op run $name" test "$rc" = 0
  [ "$rc" = 0 ] || cat "$out.log"
}
oprun "relu f32" relu out32 --input x=x32.npy
py_check "relu f32 matches numpy" <<'PY'
import numpy as np; x = np.load("x32.npy"); y = np.load("out32/y.npy")
assert y.dtype == np.float32 and y.shape == x.shape and np.array_equal(y, np.maximum(x, 0)), (y.dtype, y.shape)
PY
oprun "relu f16" relu out16 --input x=x16.npy
py_check "relu f16 matches numpy" <<'PY'
import numpy as np; x = np.load("x16.npy"); y = np.load("out16/y.npy")
assert y.dtype == np.float16 and y.shape == x.shape and np.array_equal(y, np.maximum(x, 0)), (y.dtype, y.shape)
PY
check "compile leaky_relu" compile "$SRC/kernels/activation/leaky_relu.tile" leaky
oprun "leaky_relu --attr" leaky outl --input x=x32.npy --attr negative_slope=0.2
py_check "leaky_relu attr reaches the kernel" <<'PY'
import numpy as np; x = np.load("x32.npy"); y = np.load("outl/y.npy")
np.testing.assert_allclose(y, np.where(x >= 0, x, np.float32(0.2) * x), rtol=1e-6, atol=1e-7)
PY
check "compile rms_norm" compile "$SRC/kernels/normalization/rms_norm.tile" rms
oprun "rms_norm (rows, resident weight)" rms outr --input x=xr.npy weight=w.npy
py_check "rms_norm matches numpy" <<'PY'
import numpy as np; x = np.load("xr.npy").astype(np.float64); w = np.load("w.npy")
y = np.load("outr/y.npy"); ref = x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-6) * w
np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-5)
PY

# ---- --dump-after ----
"$KGEN" tile compile relu.tile --dump-after check > dump-check.txt 2>&1
rc=$?
check "dump-after check: exit 0" test "$rc" = 0
check "dump-after check: one pass" test "$(grep -c '^=== after' dump-check.txt)" = 1
check "dump-after check: the IR" grep -q "loop t in tiles(n)" dump-check.txt
check "dump-after check: one instruction per operation" grep -q "unary.relu" dump-check.txt
check "dump-after check: no buffers yet" bash -c "! grep -q 'buffers:' dump-check.txt"
"$KGEN" tile compile relu.tile --dump-after plan_buffers > dump-plan.txt 2>&1
check "dump-after plan_buffers: header" grep -qx "=== after plan_buffers" dump-plan.txt
check "dump-after plan_buffers: the queues" grep -q "xIn in-queue" dump-plan.txt
check "dump-after plan_buffers: buffer of each value" grep -q -- "-> .*(via yOut)" dump-plan.txt
"$KGEN" tile compile relu.tile --dump-after all -o relu-all > dump-all.txt 2>&1
rc=$?
check "dump-after all with -o: exit 0" test "$rc" = 0
check "dump-after all with -o: the project too" test -s relu-all/op_kernel/relu_custom.cpp
"$KGEN" tile compile relu.tile --dump-after nosuch > nosuch.txt 2>&1
rc=$?
check "dump-after nosuch: exit 2" test "$rc" = 2
check "dump-after nosuch: message" grep -q -- "--dump-after nosuch: no such pass (passes: .*, all)" nosuch.txt
# Every pass that --dump-after all prints is in the list, in the same order, and the list has no other.
py_check "dump-after all: every pass, in the list's order" <<'PY'
import re
passes = [l[len("=== after "):].strip() for l in open("dump-all.txt") if l.startswith("=== after ")]
listed = re.search(r"passes: (.*)\)", open("nosuch.txt").read()).group(1).split(", ")
assert listed[-1] == "all" and passes == listed[:-1], (passes, listed)
for p in ("parse", "check", "plan_buffers", "split_cores", "emit"):
    assert p in passes, p
PY
for p in $(sed -n 's/^=== after //p' dump-all.txt); do
  "$KGEN" tile compile relu.tile --dump-after "$p" > "dump-$p.txt" 2>&1
  check "dump-after $p: exit 0, that pass alone" test "$?" = 0 -a "$(grep -c '^=== after' "dump-$p.txt")" = 1
done

# ---- --emit mkb, kgen op run-mkb ----
"$KGEN" tile compile relu.tile --emit mkb -o sub/relu.py > mkb.log 2>&1
rc=$?
check "emit mkb: exit 0" test "$rc" = 0
check "emit mkb: six strings" test "$(grep -cE '^(project_json_src|host_tiling_src|host_operator_src|kernel_src|python_bind_src|model_src) *=' sub/relu.py)" = 6
"$KGEN" op run-mkb sub/relu.py --task "$SRC/tasks/activation/relu.py" > runmkb.txt 2>&1
rc=$?
check "run-mkb relu: exit 0" test "$rc" = 0
check "run-mkb relu: PASS" grep -qx "PASS" runmkb.txt
[ "$rc" = 0 ] || cat runmkb.txt

# ---- a tile program as the candidate of kgen eval ----
"$KGEN" eval --task "$SRC/tasks/activation/relu.py" --candidate relu.tile --json > eval.json 2> eval.err
check "eval relu.tile: exit 0" test "$?" = 0
py_check "eval relu.tile: correct, candidate kind tile" <<'PY'
import json; j = json.load(open("eval.json"))
assert j["verdict"] == "correct" and j["candidate_kind"] == "tile" and len(j["cases"]) >= 2, (j["verdict"], j["candidate_kind"])
PY
"$KGEN" eval --task "$SRC/tasks/activation/relu.py" --candidate bad.tile --json > evalbad.json 2> evalbad.err
rc=$?
check "eval bad.tile: non-zero exit" test "$rc" != 0
py_check "eval bad.tile: compile-error with the diagnostics" <<'PY'
import json; j = json.load(open("evalbad.json"))
assert j["verdict"] == "compile-error", j["verdict"]
d = "\n".join(j["diagnostics"]); want = open("bad.err").read().rstrip("\n")
assert want in d, d
assert j["cases"] == [], "nothing ran"
PY

# ---- operators outside the suite, written in the language (tests/data/tile_ops: tasks/ and programs/ side by side),
# in one bench (the references computed with torch imported once): conversions with no single Cast (f32 -> i8 by a
# store and by hand, round() in an RMSNorm + int8 quantisation); a position's value repeated along the axis (softmax,
# softmin, a one-hot of the maximum over a chosen dim, both modes, at tails); inputs of one value per outer index
# (lengths[b]: a masked mean) and per inner index (a feature's temperature); GEGLU; a soft-capped log-sum-exp; causal
# conv1d + SiLU (a crop and silu in the epilogue), depthwise and dense; a min-max scaling of rows longer than UB, fewer
# than the cores (several cores share a row and fold their partial minima and maxima); a running maximum and a
# running sum that restart where a bool view is True (scans with reset=, row and column modes); RoPE with a half-size
# cos/sin cache shared by batch and heads (a periodic input, an output stored chunk by chunk); a W8A16 linear (a
# staged program whose first stage dequantises the int8 weight: a vector stage of its own); QK-RMSNorm attention
# scores (vector stages over rows of (batch, head, position), then the batched cube stage) ----
O=$SRC/tests/data/tile_ops
# At the fixed seed only (no secret trial, whose seed is drawn per run): add_rms_norm_quant rounds y / scale to int8,
# and where a value lies within an ulp of a .5 boundary the kernel's float32 sum of squares (another order than
# PyTorch's) can round it the other way — one element in some draws, which the int8 comparison rightly counts.
"$KGEN" bench --suite "$O/tasks" --candidates "$O/programs" --trials 1 --secret-trials 0 --jobs 2 --out ops > ops.log 2>&1
check "bench tile_ops: exit 0" test "$?" = 0
py_check "bench tile_ops: every program correct in f32 and f16, at several shapes" <<'PY'
import json; j = json.load(open("ops/results.json"))
got = sorted((r["task_id"], r["verdict"]) for r in j["results"])
assert len(got) == 24 and all(v == "correct" for _, v in got), got
for r in j["results"]:
    names = [c["name"] for c in r["cases"]]
    assert any("float16" in n for n in names) and len(names) >= 3, (r["task_id"], names)
PY

# rows shared by cores: the host's split, and a kernel whose cores skip the fold of each other's partials is wrong
"$KGEN" tile explain "$O/programs/reduce/row_range_scale.tile" \
  --input-shape x=float32:2,70000 weight=float32:70000 bias=float32:70000 > rrs_explain.txt 2>&1
check "explain row_range_scale at 2 x 70000: 13 cores share each row" grep -q "so 13 cores share each row (block dim 26" rrs_explain.txt
check "compile row_range_scale" compile "$O/programs/reduce/row_range_scale.tile" rrs
sed -i 's/for (uint32_t q = 1; q < parts_; ++q)/for (uint32_t q = 1; q < 1; ++q)/' rrs/op_kernel/row_range_scale_custom.cpp
"$KGEN" eval --task "$O/tasks/reduce/row_range_scale.py" --candidate rrs --trials 1 --secret-trials 0 --no-perf-shape \
  > rrs_eval.log 2>&1
check "row_range_scale without the fold of the row's partials: wrong answer" grep -q "^wrong-answer" rrs_eval.log

# a reduction over an axis too long for UB at 16 positions (2 x 20000 x 40, dim 1): streamed in chunks of the axis, the
# partials folded; a kernel whose chunks do not fold (each chunk starts the sum again) is wrong on that case only
"$KGEN" tile explain "$SRC/kernels/reduce/sum_reduction.tile" --input-shape x=float32:2,20000,40 > sr_explain.txt 2>&1
check "explain sum_reduction at 2 x 20000 x 40: the axis in chunks" grep -q "Long axis: .* axisChunk = [0-9]*:" sr_explain.txt
check "compile sum_reduction" compile "$SRC/kernels/reduce/sum_reduction.tile" sr
sed -i 's/          ComputeChunk(units, r0 == 0);/          ComputeChunk(units, true);/' sr/op_kernel/sum_reduction_custom.cpp
"$KGEN" eval --task "$SRC/tasks/reduce/sum_reduction.py" --candidate sr --trials 1 --secret-trials 0 --no-perf-shape \
  > sr_bad.log 2>&1
check "sum_reduction whose axis chunks are not folded: wrong on the long axis" \
  grep -q "case batch_size=2,dim1=20000,dim2=40,reduce_dim=1 .*FAIL" sr_bad.log

# an accumulator over rows longer than UB (KL divergence, batchmean): the chunked rows add into it once each; a
# kernel whose chunked path skips the add is wrong on the long-row case only
check "compile kl_div_loss" compile "$SRC/kernels/loss/kl_div_loss.tile" kl
"$KGEN" eval --task "$SRC/tasks/loss/kl_div_loss.py" --candidate kl --trials 1 --secret-trials 0 --no-perf-shape > kl_eval.log 2>&1
check "kl_div_loss with 5 rows of 70001 (chunked, accumulated): correct" grep -q "^correct" kl_eval.log
sed -i '/ProcessChunked() {/,/^  }/ s/AscendC::Add(total, total/(void)0;  \/\/ AscendC::Add(total, total/' kl/op_kernel/kl_div_loss_custom.cpp
"$KGEN" eval --task "$SRC/tasks/loss/kl_div_loss.py" --candidate kl --trials 1 --secret-trials 0 --no-perf-shape > kl_bad.log 2>&1
check "kl_div_loss whose chunked rows are not accumulated: wrong on the long rows" \
  grep -q "case batch_size=5,dim=70001 .*FAIL" kl_bad.log

# lengths must have x's dims before the axis: a wrong shape is refused by the host, naming the input and the rule
check "compile masked_mean" compile "$O/programs/reduce/masked_mean.tile" masked
"$PY" - <<'EOF'
import numpy as np
np.save("mx.npy", np.ones((4, 9, 8), np.float32)); np.save("ml.npy", np.full(5, 3, np.int32))
EOF
"$KGEN" op run masked --input x=mx.npy lengths=ml.npy --out outm > outm.log 2>&1
check "op run masked_mean with lengths[5] for x[4, 9, 8]: fails" test "$?" != 0
check "op run masked_mean: the host names the input and its shape rule" \
  grep -q "MaskedMeanCustom: input lengths must have x's dims before its dim .dim. (dim = 1)" outm.log

# ---- a crop of a transposed conv (the cube lowering's other form): the first `keep` outputs, against torch ----
sed 's/output_padding=output_padding))/output_padding=output_padding)[:, :, :keep])/; s/output_padding: i32 = 0)/output_padding: i32 = 0, keep: i32 = 7)/' \
  "$SRC/kernels/convolution/conv_transpose1d.tile" > ct_crop.tile
check "compile a cropped conv_transpose1d" compile ct_crop.tile ct_crop
py_check "a cropped conv_transpose1d: the first 7 and 9 of 11 outputs match torch" "$KGEN" <<'PY'
import numpy as np, subprocess, sys, torch
torch.manual_seed(0)
x, w, b = torch.randn(2, 3, 6), torch.randn(3, 4, 3), torch.randn(4)
np.save("ctx.npy", x.numpy()); np.save("ctw.npy", w.numpy()); np.save("ctb.npy", b.numpy())
for keep in (7, 9):
    r = subprocess.run([sys.argv[1], "op", "run", "ct_crop", "--input", "x=ctx.npy", "weight=ctw.npy", "bias=ctb.npy",
                        "--attr", "stride=2", "--attr", "padding=1", "--attr", f"keep={keep}", "--out", "cto"],
                       capture_output=True, text=True)
    assert r.returncode == 0, (keep, r.stderr[-400:])
    ref = torch.nn.functional.conv_transpose1d(x, w, b, stride=2, padding=1)[..., :keep].numpy()
    y = np.load("cto/y.npy")
    assert y.shape == ref.shape and np.abs(y - ref).max() < 1e-5, (keep, y.shape, ref.shape)
PY

# ---- an output dim named after an input's is a promise the host keeps: a causal conv's padding without its crop ----
"$KGEN" eval --task "$SRC/tests/data/tile_conv_crop/causal_conv1d.py" --candidate "$SRC/tests/data/tile_conv_crop/uncropped.tile" \
  --trials 1 --no-perf-shape --json > crop.json 2> crop.err
py_check "eval uncropped.tile: refused by the host, naming the dim and both sizes" <<'PY'
import json; j = json.load(open("crop.json")); d = "\n".join(j["diagnostics"])
assert j["verdict"] == "runtime-error" and "uncropped.tile:2: y's dim 2 is 'l' (203, dim 2 of x), but the convolution computes 205" in d, d
PY

# ---- convolutions: random geometries of every form (stride, padding, dilation, 1-3 spatial dims) against torch ----
mkdir -p sweep
"$PY" "$SRC/tests/tile_conv_sweep.py" "$KGEN" "$SRC" "$T/sweep" 30 6 > sweep.out 2>&1   # seed 6: every form
rc=$?
tail -1 sweep.out
grep FAIL sweep.out
check "conv sweep: 30 random geometries match torch" test "$rc" = 0

echo "tile test: $fails failure(s)"
exit $((fails > 0))
