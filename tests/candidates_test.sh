#!/usr/bin/env bash
# The bundled candidates (candidates/README.md) on the bundled suite: every hand-written one is correct on every case,
# the three kept-failing ones fail as documented, each correct one's timing-only trace equals its full run's, and the
# report carries the roofline and the timelines.
set -u
KGEN=$1
SRC=$2
T=$(mktemp -d /tmp/kgen-candidates-test-XXXXXX)
trap 'rm -rf "$T"' EXIT
export KGEN_CACHE=$T/cache
"$KGEN" bench --suite "$SRC/tasks" --candidates "$SRC/candidates" --jobs 2 --trials 1 --timing-check --out "$T/out" > "$T/out.txt" 2>&1
rc=$?
cat "$T/out.txt" | grep -vE "^\[[0-9]+/"
[ "$rc" = 0 ] || { echo "FAIL kgen bench exited $rc"; exit 1; }
/usr/bin/python3 - "$T/out/results.json" "$T/out/report.html" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
expected_fail = {"activation/softmax", "normalization/layer_norm", "normalization/rms_norm"}
bad = []
for r in d["results"]:
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
assert len(d["results"]) >= 23, len(d["results"])
html = open(sys.argv[2]).read()
assert "<title>roofline (modeled)</title>" in html
assert html.count("<title>modeled timeline of") >= 20
if bad:
    print("FAIL " + "\nFAIL ".join(bad))
    sys.exit(1)
print(f'ok   {len(d["results"])} candidates: {sum(r["verdict"] == "correct" for r in d["results"])} correct, '
      f'the three documented failures fail')
PY
