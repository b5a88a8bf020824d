#!/usr/bin/env bash
# `kgen perf eager` on a tiny KernelBench-format task (2-layer MLP) and `kgen perf calibrate --json`.
# Needs Debian's python3-torch for the eager part (scripts/setup.sh installs it); skips that part without it.
set -euo pipefail
KGEN=$1; ROOT=$2
PY=/usr/bin/python3
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$KGEN" perf eager --help | grep -q -- '--soc' || fail "perf eager --help"
"$KGEN" perf calibrate --help | grep -q -- '--json' || fail "perf calibrate --help"

# ---- calibrate: every point has the fields; error_pct is computed from published and modeled ----
"$KGEN" perf calibrate --json > "$TMP/cal.json" || fail "perf calibrate --json exit status"
"$PY" - "$TMP/cal.json" <<'P' || fail "calibrate JSON"
import json, sys
pts = json.load(open(sys.argv[1]))
assert isinstance(pts, list) and len(pts) >= 10, "expected a list of >= 10 points"
names = set()
for p in pts:
    for k, t in (("name", str), ("published", (int, float)), ("modeled", (int, float)), ("unit", str),
                 ("error_pct", (int, float)), ("source", str)):
        assert k in p and isinstance(p[k], t), f"{p.get('name')}: field {k}"
    assert p["published"] != 0 and p["modeled"] > 0, p["name"]
    want = (p["modeled"] - p["published"]) / p["published"] * 100
    assert abs(p["error_pct"] - want) < 1e-6 * max(1, abs(want)), f"{p['name']}: error_pct {p['error_pct']} vs {want}"
    assert p["source"], p["name"]
    assert p["name"] not in names, "duplicate " + p["name"]
    names.add(p["name"])
for need in ("matmul fp16 1024^3", "matmul fp16 2048^3", "matmul fp16 4096^3", "vector fp16 peak", "elementwise",
             "empty", "DMA GM->UB 1 KB", "eager torch matmul", "eager torch add", "eager torch.mm float16 4096^3",
             "eager broadcast mul", "kernel broadcast scale"):
    assert any(need in n for n in names), "missing point " + need
# every point in a class; the summary's classes are the points' classes
classes = {p["class"] for p in pts}
assert {"kernel cube", "kernel vector", "kernel DMA", "eager matmul", "eager vector"} <= classes, classes
P
"$KGEN" perf calibrate > "$TMP/cal.txt" || fail "perf calibrate exit status"
grep -q 'median |error|' "$TMP/cal.txt" || fail "calibrate table summary"
# the per-class table: one row per class with median, p90 and max |error|, then "all"
"$PY" - "$TMP/cal.json" "$TMP/cal.txt" <<'P' || fail "calibrate per-class table"
import json, re, statistics, sys
pts = json.load(open(sys.argv[1]))
rows = {m.group(1).strip(): (int(m.group(2)), float(m.group(3))) for m in
        re.finditer(r"^([A-Za-z][A-Za-z ]+?)\s+(\d+)\s+([0-9.]+)%\s+[0-9.]+%\s+[0-9.]+%$", open(sys.argv[2]).read(), re.M)}
for cls in {p["class"] for p in pts} | {"all"}:
    errs = [abs(p["error_pct"]) for p in pts if cls in ("all", p["class"])]
    assert cls in rows, (cls, rows)
    n, med = rows[cls]
    assert n == len(errs) and abs(med - statistics.median(errs)) < 0.06, (cls, rows[cls], statistics.median(errs))
P

# ---- eager ----
if ! "$PY" -c 'import torch' 2>/dev/null; then
  echo "SKIP: kgen perf eager (no python3-torch: run scripts/setup.sh)"; exit 0
fi
TASK="$ROOT/tests/data/tasks/mlp2.py"
"$KGEN" perf eager "$TASK" --json > "$TMP/eager.json" || fail "perf eager --json exit status"
"$PY" - "$TMP/eager.json" <<'P' || fail "eager JSON"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["soc"] == "Ascend910B2" and r["label"] == "modeled, Ascend910B2", r.get("label")
ops = r["ops"]
names = [o["name"] for o in ops]
# Linear -> addmm (with t views), relu, Linear -> addmm
assert names.count("addmm") == 2 and "relu" in names, names
mm = [o for o in ops if o["name"] == "addmm"]
assert mm[0]["inputs"][1]["shape"] == [16, 64] and mm[0]["outputs"][0]["shape"] == [16, 128], mm[0]
assert mm[0]["flops"] == 2 * 16 * 128 * 64 + 16 * 128, mm[0]["flops"]
assert mm[1]["outputs"][0]["shape"] == [16, 32]
for o in ops:
    for k in ("host_us", "head_us", "exec_us", "device_us", "start_us", "end_us", "bytes", "flops", "bound", "cls"):
        assert k in o, (o["name"], k)
    assert abs(o["device_us"] - o["head_us"] - o["exec_us"]) < 1e-9
    if o["cls"] == "view":
        assert o["device_us"] == 0
    else:
        assert o["device_us"] > 0 and o["bytes"] > 0
assert abs(r["device_us"] - sum(o["device_us"] for o in ops)) < 1e-6
assert abs(r["host_us"] - sum(o["host_us"] for o in ops)) < 1e-6
assert r["e2e_us"] >= max(r["device_us"], r["host_us"]) - 1e-9
# five tiny ops: overhead-dominated, a few us each (published torch_npu small-op latencies 3-15 us)
assert 3 * 3 <= r["e2e_us"] <= 3 * 15 + 5, r["e2e_us"]
P
"$KGEN" perf eager "$TASK" | grep -q 'modeled, Ascend910B2' || fail "eager table label"
"$KGEN" perf eager "$TASK" --soc Ascend910B4 --json | grep -q '"soc": "Ascend910B4"' || fail "eager --soc"
if "$KGEN" perf eager "$TMP/none.py" 2>"$TMP/err"; then fail "missing task accepted"; fi
grep -q "no task file" "$TMP/err" || fail "missing task message"

# --perf and --case: the eager model at the task's perf shape (what kgen eval's headline divides by) and at a case.
LR="$ROOT/tasks/activation/leaky_relu.py"
"$KGEN" perf eager "$LR" --perf --json > "$TMP/perf.json" || fail "perf eager --perf exit status"
"$KGEN" perf eager "$LR" --case dtype=float16 --json > "$TMP/case.json" || fail "perf eager --case exit status"
"$KGEN" perf eager "$LR" --json > "$TMP/small.json" || fail "perf eager (as written) exit status"
/usr/bin/python3 - "$TMP/perf.json" "$TMP/case.json" "$TMP/small.json" <<'P' || fail "perf eager --perf / --case figures"
import json, sys
perf, case, small = (json.load(open(p)) for p in sys.argv[1:4])
assert perf["shape"] == "the perf shape batch_size=4096,dim=393216", perf["shape"]
x = perf["ops"][0]["inputs"][0]
assert x["shape"] == [4096, 393216] and x["dtype"] == "float32", x
# 6.4 GB in and out at HBM bandwidth: milliseconds, not the small shape's microseconds; launch a rounding error
assert perf["device_us"] > 1000 * small["device_us"], (perf["device_us"], small["device_us"])
assert (perf["e2e_us"] - perf["device_us"]) / perf["e2e_us"] < 0.01
assert case["shape"] == "case dtype=float16" and case["ops"][0]["inputs"][0]["dtype"] == "float16", case
assert small["shape"] == "the sizes as written"
P
if "$KGEN" perf eager "$LR" --case nosuch 2>"$TMP/err"; then fail "unknown case accepted"; fi
grep -q "has no case 'nosuch'; its cases: default" "$TMP/err" || { cat "$TMP/err"; fail "unknown case message"; }
if "$KGEN" perf eager "$LR" --case default --perf 2>"$TMP/err"; then fail "--perf with --case accepted"; fi
echo "perf cli: ok"
