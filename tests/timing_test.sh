#!/bin/bash
# Timing-only runs (docs/emulator.md "Timing-only runs"): the kernel at a benchmark's real size for its trace alone.
#  - a 6.4 GB-per-tensor leaky_relu (4096 x 393216 float32) runs timing-only under a 1 GiB memory limit, is modeled
#    HBM-bound with a launch share under 1 %, and its modeled time is within 15 % of eager torch_npu's leaky_relu
#    at the same shape (a one-for-one replacement cannot beat HBM bandwidth: speedup near 1.0x);
#  - at that size the double-buffered gelu beats its single-buffered twin where HBM is not the limit (4 cores);
#  - a kernel whose control flow reads input data is caught by --timing-check (the traces differ), and its
#    timing-only run names the read;
#  - usage errors: --input-shape without --timing-only, a bad dtype, --timing-check with --timing-only.
# The equality of timing-only and full traces for every bundled program is checked where they run: op_projects_test
# (examples), candidates_test (candidates), tile_test (the expert library).
# Usage: timing_test.sh KGEN SOURCE_DIR
set -u
KGEN=${1:?usage: timing_test.sh KGEN SOURCE_DIR}
SRC=${2:?usage: timing_test.sh KGEN SOURCE_DIR}
KGEN=$(cd "$(dirname "$KGEN")" && pwd)/$(basename "$KGEN")
SRC=$(cd "$SRC" && pwd)
PY=/usr/bin/python3
if ! $PY -c 'import torch, numpy' 2>/dev/null; then
  echo "SKIP: $PY has no torch/numpy"
  exit 0
fi
W=$(mktemp -d /tmp/kgen-timing-test-XXXXXX)
export KGEN_CACHE="$W/cache"
trap 'rm -rf "$W"' EXIT
FAILS=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; FAILS=$((FAILS + 1)); }
LEAKY="$SRC/candidates/activation/leaky_relu"
BIG="x=float32:4096,393216"

# ---- 6.4 GB tensors, timing-only, under a memory limit ----
if "$KGEN" op run "$LEAKY" --input-shape "$BIG" --attr negative_slope=0.2 --timing-only --memory-mb 1024 --json \
    > "$W/big.json" 2> "$W/big.err"; then
  ok "timing-only 4096x393216 float32 under --memory-mb 1024"
else
  bad "timing-only 4096x393216 float32 under --memory-mb 1024 failed:"; head -5 "$W/big.err"
fi
sed -e 's/^batch_size = 64/batch_size = 4096/' -e 's/^dim = 1000 .*/dim = 393216/' \
  "$SRC/tasks/activation/leaky_relu.py" > "$W/big_leaky.py"
"$KGEN" perf eager "$W/big_leaky.py" --json > "$W/eager.json" 2> "$W/eager.err" || { bad "kgen perf eager"; head -5 "$W/eager.err"; }
if $PY - "$W/big.json" "$W/eager.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["modeled"]
e = json.load(open(sys.argv[2]))
assert m["label"] == "modeled" and m["soc"] == "Ascend910B2", m
assert m["value_reads"] == 0 and m["records"] > 4_000_000, m
assert m["bound"] == "HBM", m["bound"]
assert m["launch_share"] < 0.01, m["launch_share"]
assert m["gm_bytes"] >= 2 * 4096 * 393216 * 4, m["gm_bytes"]   # every byte in and out once
speedup = e["device_us"] / m["us"]
assert 0.9 <= speedup <= 1.15, (speedup, e["device_us"], m["us"])
print(f'ok   one-for-one leaky_relu at 4096x393216: {m["us"]:.0f} us vs eager {e["device_us"]:.0f} us '
      f'(modeled speedup {speedup:.3f}x, launch {100 * m["launch_share"]:.2f} %)')
PY
then :; else bad "the real-size leaky_relu is not near 1.0x of eager, HBM-bound"; fi

# ---- double buffering pays at the real size where HBM is not the limit ----
# On all 48 vector cores an elementwise kernel is HBM-bound either way (the other cores' transfers fill the time a
# single-buffered core computes); on 4 cores the overlap of MTE2, V and MTE3 is what the double buffer buys.
GELU="$SRC/candidates/activation/gelu"
for twin in single double; do
  cp -rL "$GELU" "$W/$twin"
  sed -i 's/^    uint32_t coreNum = platform.GetCoreNumAiv();/    uint32_t coreNum = 4;/' "$W/$twin"/op_host/*.cpp
  grep -q "coreNum = 4;" "$W/$twin"/op_host/*.cpp || bad "could not limit the $twin twin to 4 cores"
done
sed -i 's/^constexpr int32_t BUFFER_NUM = 2;/constexpr int32_t BUFFER_NUM = 1;/' "$W/single/op_kernel/gelu_custom.cpp"
grep -q "BUFFER_NUM = 1;" "$W/single/op_kernel/gelu_custom.cpp" || bad "could not make the single-buffered twin"
for twin in single double; do
  "$KGEN" op run "$W/$twin" --input-shape "$BIG" --timing-only --json > "$W/$twin.json" 2> "$W/$twin.err" \
    || { bad "$twin-buffered timing-only run"; head -5 "$W/$twin.err"; }
done
if $PY - "$W/double.json" "$W/single.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["modeled"]["us"]
s = json.load(open(sys.argv[2]))["modeled"]["us"]
assert d * 1.2 < s, (d, s)
print(f"ok   gelu on 4 cores at 4096x393216: double-buffered {d:.0f} us < single-buffered {s:.0f} us ({s / d:.2f}x)")
PY
then :; else bad "double buffering does not beat single buffering at the real size"; fi

# ---- control flow that reads input data: --timing-check finds it ----
cp -rL "$LEAKY" "$W/peek"
sed -i 's|^        uint32_t tileNum = (coreLength + tileLength - 1) / tileLength;|&\n        if (xGm.GetValue(0) == static_cast<T>(0)) tileNum = 0;|' "$W/peek/op_kernel/leaky_relu_custom.cpp"
grep -q "xGm.GetValue(0)" "$W/peek/op_kernel/leaky_relu_custom.cpp" || bad "could not make the data-peeking kernel"
$PY -c "import numpy as np; np.save('$W/x.npy', (np.random.default_rng(1).standard_normal((64, 4096)) + 3).astype(np.float32))"
"$KGEN" op run "$W/peek" --input x="$W/x.npy" --out "$W/peek_out" --timing-check > "$W/peek.txt" 2>&1
if grep -q "timing check: the traces differ" "$W/peek.txt"; then ok "--timing-check: a kernel branching on input data differs"
else bad "--timing-check missed a data-dependent branch:"; cat "$W/peek.txt"; fi
"$KGEN" op run "$LEAKY" --input x="$W/x.npy" --out "$W/leaky_out" --timing-check > "$W/leaky.txt" 2>&1
if grep -q "timing check: the timing-only trace equals the full run's" "$W/leaky.txt"; then ok "--timing-check: the candidate is exact"
else bad "--timing-check on the candidate:"; cat "$W/leaky.txt"; fi
"$KGEN" op run "$W/peek" --input-shape x=float32:64,4096 --timing-only > "$W/peek_t.txt" 2>&1
if grep -q "scalar reads of values a timing-only run does not compute (first: leaky_relu_custom.cpp:[0-9]* GlobalTensor::GetValue)" "$W/peek_t.txt"; then
  ok "timing-only names the value read"
else bad "timing-only does not name the value read:"; cat "$W/peek_t.txt"; fi

# ---- a KernelBench file loaded unchanged at its own 6.4 GB size: checked scaled, timed at its size ----
"$KGEN" eval --task "$SRC/tests/data/task_formats/kernelbench_sizes/level1/20_LeakyReLU.py" --candidate "$LEAKY" \
  --trials 1 --memory-mb 1024 --json > "$W/kbeval.json" 2> "$W/kbeval.err"
if $PY - "$W/kbeval.json" <<'P'; then ok "eval of a KernelBench file at its own size: checked at batch 32, timed at 4096 x 393216"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["verdict"] == "correct" and j["speedup_shape"] == "perf", (j["verdict"], j["diagnostics"])
assert any("batch_size 4096 -> 32" in d for d in j["diagnostics"]), j["diagnostics"]
assert j["perf"]["inputs"] == "float32[4096,393216]" and 0.98 < j["speedup"] < 1.02, j["perf"]
P
else bad "a KernelBench file at its own size:"; cat "$W/kbeval.json" "$W/kbeval.err"; fi

# ---- kgen eval: the headline at the task's perf shape (6.4 GB tensors) under a 1 GB memory limit ----
"$KGEN" eval --task "$SRC/tasks/activation/leaky_relu.py" --candidate "$LEAKY" --trials 1 --memory-mb 1024 --json \
  > "$W/eval.json" 2> "$W/eval.err"
if $PY - "$W/eval.json" <<'P'; then ok "eval: 1.00x at the perf shape 4096x393216 under --memory-mb 1024 (and at the check shapes)"
import json, sys
j = json.load(open(sys.argv[1]))
p = j["perf"]
assert j["verdict"] == "correct" and j["speedup_shape"] == "perf", (j["verdict"], j["speedup_shape"], j["diagnostics"])
assert p["shape"] == "batch_size=4096,dim=393216" and p["inputs"] == "float32[4096,393216]", p
assert 0.98 < j["speedup"] < 1.02 and j["speedup"] == p["speedup"] and 0.9 < j["check_speedup"] < 1.1, (j["speedup"], j["check_speedup"])
assert p["bound"] == "HBM" and p["launch_share"] < 0.005 and j["launch_us"] / j["modeled_us"] > 0.8, p
assert 0 < p["peak_rss_mb"] < 1024 and p["records"] > 4e6 and p["modeled"], p
P
else bad "eval at the perf shape:"; cat "$W/eval.json" "$W/eval.err"; fi

# ---- usage errors ----
expect_usage() {   # DESCRIPTION EXPECTED-TEXT ARGS...
  local what=$1 want=$2
  shift 2
  "$KGEN" op run "$LEAKY" "$@" > "$W/u.txt" 2>&1
  local rc=$?
  if [ "$rc" = 2 ] && grep -q -- "$want" "$W/u.txt"; then ok "$what"; else bad "$what (exit $rc):"; cat "$W/u.txt"; fi
}
expect_usage "--input-shape needs --timing-only" "add --timing-only" --input-shape x=float32:8,8 --out "$W/o"
expect_usage "an unknown dtype is refused" "expected NAME=DTYPE:D0,D1" --input-shape x=float33:8,8 --timing-only
expect_usage "--timing-check with --timing-only is refused" "drop --timing-only" --input x="$W/x.npy" --timing-only --timing-check
expect_usage "--out is required for a full run" "--out DIR is required" --input x="$W/x.npy"
"$KGEN" op run "$LEAKY" --input-shape x=float32:8,abc --timing-only > "$W/u.txt" 2>&1
if [ $? = 2 ] && grep -q "unexpected 'a'" "$W/u.txt"; then ok "a malformed shape is a usage error"; else bad "malformed shape:"; cat "$W/u.txt"; fi

[ "$FAILS" = 0 ] || { echo "$FAILS failure(s)"; exit 1; }
echo "all timing-only checks passed"
