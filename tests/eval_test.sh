#!/usr/bin/env bash
# kgen eval end to end: every verdict reached on purpose by a small candidate. The bad candidates are sed-made
# variants of examples/op_projects/leaky_relu (and of examples/mkb/add.py) in a temp dir.
# Usage: eval_test.sh KGEN SOURCE_DIR
set -u
KGEN=$1
SRC=$2
PY=/usr/bin/python3
W=$(mktemp -d /tmp/kgen-eval-test.XXXXXX)
trap 'rm -rf "$W"' EXIT
export KGEN_CACHE=$W/cache
TASK=$SRC/tasks/activation/leaky_relu.py
BASE=$SRC/examples/op_projects/leaky_relu
KERNEL=op_kernel/leaky_relu_custom.cpp
HOST=op_host/leaky_relu_custom.cpp
fail=0
pass=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && echo "$2" | head -40; }

variant() {   # variant NAME FILE(relative) SED
  rm -rf "$W/$1"; cp -r "$BASE" "$W/$1"; sed -i "$3" "$W/$1/$2"
  if cmp -s "$BASE/$2" "$W/$1/$2"; then bad "variant $1: the sed changed nothing"; fi
}
expect() {   # expect NAME VERDICT GREP-PATTERN -- kgen eval ARGS...
  local name=$1 verdict=$2 pat=$3; shift 4
  local o; o=$("$KGEN" eval "$@" 2>&1); local rc=$?
  local want=3; [ "$verdict" = correct ] && want=0
  if [ $rc -eq $want ] && echo "$o" | head -1 | grep -q "^$verdict:" && echo "$o" | grep -qE -- "$pat"; then
    ok "$name: $(echo "$o" | grep -m1 -E -- "$pat")"
  else bad "$name (rc $rc, want $verdict and /$pat/)" "$o"; fi
}

# --- correct, with a speedup; JSON fields --------------------------------------------------------------------------
expect correct correct "^speedup [0-9.]+x" -- --task "$TASK" --candidate "$BASE" --trials 2
js=$("$KGEN" eval --task "$TASK" --candidate "$BASE" --trials 2 --json)
echo "$js" | $PY -c '
import json, sys
j = json.load(sys.stdin)
for k in ("verdict", "diagnostics", "max_abs_err", "max_rel_err", "modeled_us", "eager_modeled_us", "speedup", "soc",
          "cases"):
    assert k in j, k
assert j["verdict"] == "correct" and j["speedup"] > 0 and j["modeled_us"] > 0 and j["eager_modeled_us"] > 0, j
assert [c["name"] for c in j["cases"]] == ["default", "batch_size=37,dim=129", "dtype=float16"], j["cases"]
assert all(c["correct"] for c in j["cases"]) and j["max_abs_err"] < 1e-2, j
assert j["soc"] == "Ascend910B2" and j["task_id"] == "activation/leaky_relu" and j["candidate_kind"] == "op-project"
' && ok "--json fields (cached reference)" || bad "--json" "$js"
expect soc correct "modeled, Ascend910B4" -- --task "$TASK" --candidate "$BASE" --trials 1 --soc Ascend910B4

# --- the reference manifest: a task seen before is listed without starting Python; a changed task or lost data is
# computed again ------------------------------------------------------------------------------------------------------
ref_s() { "$KGEN" eval --task "$1" --candidate "$BASE" --trials 2 --secret-trials 0 --no-perf-shape --json |
          $PY -c 'import json, sys; j = json.load(sys.stdin); assert j["verdict"] == "correct", j; print(j["reference_s"])'; }
cp "$TASK" "$W/leaky_relu.py"
first=$(ref_s "$W/leaky_relu.py"); again=$(ref_s "$W/leaky_relu.py")
nman=$(ls "$KGEN_CACHE/ref-manifest" 2>/dev/null | wc -l)
# Python's start alone is over 50 ms; reading a manifest and checking its folders is about 1 ms.
if $PY -c "import sys; sys.exit(not ($again < 0.03 and $first > 0.05))" && [ "$nman" -ge 1 ]; then
  ok "reference manifest: ${first} s, then ${again} s from $nman manifest(s)"
else bad "reference manifest: ${first} s, then ${again} s, $nman manifest(s)"; fi
echo "# a comment" >> "$W/leaky_relu.py"
changed=$(ref_s "$W/leaky_relu.py")
rm -rf "$KGEN_CACHE"/ref/*
lost=$(ref_s "$W/leaky_relu.py")
if $PY -c "import sys; sys.exit(not ($changed > 0.05 and $lost > 0.05))"; then
  ok "a changed task (${changed} s) and lost reference data (${lost} s) are computed again"
else bad "changed task ${changed} s, lost data ${lost} s: want both computed again"; fi

# --- wrong answer: a wrong constant --------------------------------------------------------------------------------
variant wrong "$KERNEL" 's/this->slope = static_cast<T>(slope);/this->slope = static_cast<T>(slope * 1.5f);/'
expect wrong-answer wrong-answer "first mismatch: trial 0: output 0 \('y'\) index \[[0-9]+, [0-9]+\]: got" -- \
  --task "$TASK" --candidate "$W/wrong"

# --- compile error in the host file --------------------------------------------------------------------------------
variant hostcc "$HOST" 's/static ge::graphStatus InferDataType/static int broken = ;\nstatic ge::graphStatus InferDataType/'
expect compile-error compile-error "leaky_relu_custom.cpp:[0-9]+.*error" -- --task "$TASK" --candidate "$W/hostcc"

# --- runtime error: DataCopy of a tail that is not a whole number of 32-byte blocks --------------------------------
variant tail "$KERNEL" '0,/if (Aligned(len)) {/s//if (true) {/'
expect runtime-error runtime-error "category: (gm-out-of-bounds|align)" -- --task "$TASK" --candidate "$W/tail"

# --- timeout: a kernel that never ends ----------------------------------------------------------------------------
variant spin "$KERNEL" 's/    GET_TILING_DATA(tilingData, tiling);/    volatile int spin = 1; while (spin) {}\n    GET_TILING_DATA(tilingData, tiling);/'
expect timeout timeout "error\[timeout\]" -- --task "$TASK" --candidate "$W/spin" --timeout 5

# --- cheating: reading a file in the kernel, the environment in the host -------------------------------------------
variant cheatfile "$KERNEL" 's/    GET_TILING_DATA(tilingData, tiling);/    FILE* ref = fopen("\/tmp\/y.npy", "rb");\n    GET_TILING_DATA(tilingData, tiling);/'
expect cheating-fopen cheating "^  cheating .*leaky_relu_custom.cpp:[0-9]+: fopen\(...\) call — " -- \
  --task "$TASK" --candidate "$W/cheatfile"
variant cheatenv "$HOST" 's/    uint64_t totalLength = /    const char* dir = getenv("KGEN_CACHE");\n    uint64_t totalLength = /'
expect cheating-getenv cheating "cheating .*leaky_relu_custom.cpp:[0-9]+: reads the environment \(getenv\)" -- \
  --task "$TASK" --candidate "$W/cheatenv"

# --- MultiKernelBench submission ----------------------------------------------------------------------------------
expect mkb-correct correct "^speedup [0-9.]+x" -- --task "$SRC/examples/mkb/tasks/add.py" \
  --candidate "$SRC/examples/mkb/add.py" --trials 2
sed 's/return custom_ops_lib.add_custom(a, b)/return torch.add(a, b)/' "$SRC/examples/mkb/add.py" > "$W/mkb_torch.py"
expect mkb-cheating cheating "cheating .*mkb_torch.py:[0-9]+: torch.add\(...\) in model_src" -- \
  --task "$SRC/examples/mkb/tasks/add.py" --candidate "$W/mkb_torch.py"

# --- --profile DIR: each modeled launch's report, lanes and Perfetto timeline (sync flows, launch span, counters) --
expect profile correct "^profile: [0-9]+ file\(s\) in $W/prof " -- --task "$TASK" --candidate "$BASE" --trials 1 --profile "$W/prof"
if "$PY" - "$W/prof" <<'PY'
import glob, json, os, sys
d = sys.argv[1]
tl = sorted(glob.glob(os.path.join(d, "*_leaky_relu_custom.timeline.json")))
assert len(tl) == 3, tl                                         # one per check case
assert glob.glob(os.path.join(d, "perf_0_leaky_relu_custom.report.txt")), os.listdir(d)   # the perf shape: report only
assert not glob.glob(os.path.join(d, "perf_*.timeline.json"))
ev = json.load(open(tl[0]))["traceEvents"]
ph = [e["ph"] for e in ev]
launch = [e for e in ev if e["ph"] == "X" and e.get("cat") == "launch"]
assert [e["name"].split(" (")[0] for e in launch] == ["host dispatch + launch head", "kernel body"], launch
assert ph.count("s") == ph.count("f") > 0 and ph.count("C") > 100, {k: ph.count(k) for k in set(ph)}
assert any(e["ph"] == "X" and e["cat"] == "S" for e in ev), "no scalar-unit spans"
body0 = launch[1]["ts"]
assert all(e["ts"] >= body0 - 1e-9 for e in ev if e["ph"] == "X" and e.get("cat") != "launch")
txt = open(tl[0].replace(".timeline.json", ".report.txt")).read()
assert "MODELED on Ascend910B2" in txt, txt[:200]
PY
then ok "profile: three case timelines with flows, launch span, counters, scalar spans; the perf shape's report"
else bad "profile: the files"; fi

# --- usage ----------------------------------------------------------------------------------------------------------
"$KGEN" eval --task "$W/none.py" --candidate "$BASE" >/dev/null 2>&1; [ $? -eq 2 ] && ok "usage: missing task -> 2" || bad "usage"

echo "eval_test: $pass passed, $fail failed"
[ $fail -eq 0 ]
