#!/usr/bin/env bash
# The bundled candidates (candidates/README.md) on the bundled suite: every hand-written one is correct on every case,
# the four kept-failing ones fail as documented (log_softmax only at its perf shape), each correct one's timing-only
# trace equals its full run's, the one-for-one replacements of a large elementwise aten op land at 1.0x at the perf
# shape (and at the check shapes), and the reports carry the roofline, the timelines and the perf-shape columns.
set -u
KGEN=$1
SRC=$2
T=$(mktemp -d /tmp/kgen-candidates-test-XXXXXX)
trap 'rm -rf "$T"' EXIT
export KGEN_CACHE=$T/cache
# Every candidate at the check shapes with the timing check; the activation ones (the one-for-one replacements, swish,
# log_softmax's failure at KernelBench's size) again at their perf shape, timed timing-only at 4096 x 393216 (the
# other candidates' perf shapes take the same code path).
"$KGEN" bench --suite "$SRC/tasks" --candidates "$SRC/candidates" --jobs 2 --trials 1 --timing-check --no-perf-shape \
  --out "$T/check" > "$T/check.txt" 2>&1
rc=$?
cat "$T/check.txt" | grep -vE "^\[[0-9]+/"
[ "$rc" = 0 ] || { echo "FAIL kgen bench (check shapes) exited $rc"; exit 1; }
# At the perf shapes: two one-for-one replacements (relu, gelu), swish and log_softmax in CI; CANDIDATES_PERF_ALL=1
# (bench/run.sh) takes every activation candidate.
PERF_SET="relu gelu swish log_softmax"
[ "${CANDIDATES_PERF_ALL:-0}" = 1 ] && PERF_SET=$(ls "$SRC/candidates/activation")
mkdir -p "$T/perf/activation"
for c in $PERF_SET; do ln -s "$SRC/candidates/activation/$c" "$T/perf/activation/$c"; done
"$KGEN" bench --suite "$SRC/tasks" --candidates "$T/perf" --filter activation/ --jobs 2 --trials 1 \
  --out "$T/out" > "$T/out.txt" 2>&1
rc=$?
cat "$T/out.txt" | grep -vE "^\[[0-9]+/"
[ "$rc" = 0 ] || { echo "FAIL kgen bench (activation at the perf shapes) exited $rc"; exit 1; }
/usr/bin/python3 - "$T/check/results.json" "$T/check/report.html" "$T/out/results.json" "$T/out/report.html" \
  "$(echo $PERF_SET | wc -w)" <<'PY'
import json, sys
check, perf = json.load(open(sys.argv[1])), json.load(open(sys.argv[3]))
expected_fail = {"activation/softmax", "normalization/layer_norm", "normalization/rms_norm"}   # at the check shapes
one_for_one = {"activation/relu", "activation/leaky_relu", "activation/sigmoid", "activation/tanh",
               "activation/hardtanh", "activation/gelu"}   # one aten op replaced by one kernel
bad = []
for r in check["results"]:
    want = "runtime-error" if r["task_id"] in expected_fail else "correct"
    if r["verdict"] != want:
        bad.append(f'{r["task_id"]}: {r["verdict"]} (want {want}): {r["diagnostics"][:2]}')
    if r["verdict"] == "correct":
        for c in r["cases"]:
            assert c["gm_bytes"] > 0 and c["flops"] >= 0 and c["bound"], (r["task_id"], c)
        assert r["timeline"]["lanes"], r["task_id"]
        assert r["speedup"] > 0
        if r["timing_check"] != "equal":   # the timing-only trace of case 0 is the full run's (docs/emulator.md)
            bad.append(f'{r["task_id"]}: timing check: {r["timing_check"]}')
assert len(check["results"]) >= 23, len(check["results"])
for r in perf["results"]:
    want = "runtime-error" if r["task_id"] in expected_fail | {"activation/log_softmax"} else "correct"
    if r["verdict"] != want:
        bad.append(f'{r["task_id"]} at the perf shape: {r["verdict"]} (want {want}): {r["diagnostics"][:2]}')
    p = r["perf"]
    if r["task_id"] == "activation/log_softmax":   # right at every check shape, refused at KernelBench's size
        d0 = "\n".join(r["diagnostics"])
        if "the perf shape batch_size=4096,dim=393216" not in d0 or "passed every check shape" not in d0:
            bad.append(f'log_softmax: the perf-shape failure is not explained: {r["diagnostics"][:3]}')
    if r["task_id"] in one_for_one and r["verdict"] == "correct":
        # At 4096 x 393216 both sides are HBM-bound: the kernel cannot beat the bandwidth, the launch is noise. At the
        # small check shapes both take the same host path and the same vector-kernel launch (docs/perf-model.md "The
        # host path"): 1.0x there too, not a launch-accounting speedup.
        if not (r["speedup_shape"] == "perf" and 0.95 <= r["speedup"] <= 1.05 and 0.9 <= r["check_speedup"] <= 1.1
                and p["launch_share"] < 0.01 and p["eager_launch_share"] < 0.01 and 0.95 <= p["body_speedup"] <= 1.05
                and p["modeled"] and p["inputs"].startswith("float32[")):
            bad.append(f'{r["task_id"]}: perf shape: speedup {r["speedup"]} at {r["speedup_shape"]}, check '
                       f'{r["check_speedup"]}, perf {p}')
    if r["task_id"] == "activation/swish" and not 2.3 < r["speedup"] < 2.7:   # eager: sigmoid, then mul
        bad.append(f'swish: perf-shape speedup {r["speedup"]}, want about 2.5')
    if r["verdict"] == "correct" and r["speedup_shape"] == "check" and (r["perf"]["shape"] or r["perf"]["skipped"]):
        bad.append(f'{r["task_id"]}: has a perf shape but the headline is the check shapes\': {r["perf"]}')
assert len(perf["results"]) == int(sys.argv[5]), [r["task_id"] for r in perf["results"]]
html = open(sys.argv[2]).read()
assert "<title>roofline (modeled)</title>" in html
assert html.count("<title>modeled timeline of") >= 19
html = open(sys.argv[4]).read()
assert "launch-excluded speedup" in html and "perf batch_size=4096,dim=393216" in html
if bad:
    print("FAIL " + "\nFAIL ".join(bad))
    sys.exit(1)
print(f'ok   {len(check["results"])} candidates: {sum(r["verdict"] == "correct" for r in check["results"])} correct at the '
      f'check shapes with equal timing-only traces, the documented failures fail; at the perf shape the one-for-one '
      f'replacements are 1.0x and log_softmax fails as documented')
PY
