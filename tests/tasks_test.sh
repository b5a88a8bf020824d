#!/usr/bin/env bash
# `kgen tasks list|check`: the bundled suite (tasks/) passes the checks and covers >= 100 tasks, the 15 categories
# and three levels; the loader reads the fixture trees of tests/data/task_formats (KernelBench, MultiKernelBench with
# an NPUKernelBench task, kgen's own format) and reports the mistakes of the bad/ fixture with file:line.
set -euo pipefail
KGEN=$1; ROOT=$2
PY=/usr/bin/python3
FX="$ROOT/tests/data/task_formats"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
if ! "$PY" -c 'import torch' 2>/dev/null; then
  echo "SKIP: kgen tasks (no python3-torch: run scripts/setup.sh)"; exit 0
fi

"$KGEN" tasks --help | grep -q check || fail "tasks --help"

# ---- the bundled suite ----
start=$(date +%s)
"$KGEN" tasks check > "$TMP/check.txt" 2>&1 || { cat "$TMP/check.txt"; fail "kgen tasks check over tasks/"; }
echo "tasks check: $(tail -2 "$TMP/check.txt" | head -1) in $(( $(date +%s) - start )) s"
"$KGEN" tasks list --json > "$TMP/list.json" || fail "tasks list --json"
"$KGEN" tasks list > "$TMP/list.txt" || fail "tasks list"
grep -q '^category' "$TMP/list.txt" || fail "tasks list: no category x level table"
"$PY" - "$TMP/list.json" <<'P' || fail "suite coverage"
import json, sys
tasks = json.load(open(sys.argv[1]))
cats = {"activation", "broadcast", "reduce", "normalization", "loss", "pooling", "matmul", "convolution",
        "attention", "index", "math", "optimizer", "resize", "fuse", "arch"}
assert len(tasks) >= 100, f"{len(tasks)} tasks, want >= 100"
assert {t["category"] for t in tasks} == cats, sorted({t["category"] for t in tasks} ^ cats)
assert {t["level"] for t in tasks} == {1, 2, 3}, sorted({t["level"] for t in tasks})
assert all(t["source"] == "kgen" and not t["problems"] for t in tasks)
multi = sum(len(t["cases"]) > 1 for t in tasks)
assert multi * 3 >= len(tasks), f"only {multi} of {len(tasks)} tasks have CASES"
assert sum("float16" in t["dtypes"] for t in tasks) * 2 >= len(tasks), "too few fp16 tasks"
assert any("bfloat16" in t["dtypes"] for t in tasks) and any("int32" in t["dtypes"] or "int64" in t["dtypes"] for t in tasks)
P

# ---- KernelBench layout ----
"$KGEN" tasks list --suite "$FX/kernelbench" --json > "$TMP/kb.json" || fail "list kernelbench"
"$PY" - "$TMP/kb.json" <<'P' || fail "KernelBench fixture"
import json, sys
got = {t["id"]: (t["category"], t["level"], t["source"], len(t["cases"])) for t in json.load(open(sys.argv[1]))}
want = {"activation/19_ReLU": ("activation", 1, "KernelBench", 1),
        "matmul/1_Square_matrix_multiplication_": ("matmul", 1, "KernelBench", 1),
        "fuse/1_Conv2D_ReLU_BiasAdd": ("fuse", 2, "KernelBench", 1),
        "arch/1_MLP": ("arch", 3, "KernelBench", 1)}
assert got == want, got
P
"$KGEN" tasks check --suite "$FX/kernelbench" > /dev/null || fail "check kernelbench"
# A KernelBench file at KernelBench's own size (6.4 GB inputs): checked at a copy scaled along batch_size (no 22 GB
# reference), timed at its own size (perf = its sizes as written), and the check says what it scaled.
"$KGEN" tasks check --suite "$FX/kernelbench_sizes" --json > "$TMP/kbs.json" || fail "check a real-size KernelBench file"
"$PY" - "$TMP/kbs.json" <<'P' || fail "real-size KernelBench file: scaled check case"
import json, sys
(r,) = json.load(open(sys.argv[1]))
(c,) = r["cases"]
assert not r["problems"], r["problems"]
assert c["input_bytes"] <= 64 << 20 and c["outputs"][0]["shape"] == [32, 393216], c
assert "batch_size 4096 -> 32" in c["note"] and "timed at its own sizes" in c["note"], c["note"]
assert r["perf"]["input_bytes"] == 4096 * 393216 * 4, r["perf"]
P

# ---- MultiKernelBench reference tree with an NPUKernelBench task ----
"$KGEN" tasks list --suite "$FX/mkb" --json > "$TMP/mkb.json" || fail "list mkb"
"$PY" - "$TMP/mkb.json" <<'P' || fail "MKB fixture"
import json, sys
got = {t["id"]: t for t in json.load(open(sys.argv[1]))}
assert sorted(got) == ["activation/relu", "fuse/gemm_add_relu", "npukernelbench_level1/add"], sorted(got)
assert got["activation/relu"]["source"] == "MultiKernelBench" and got["activation/relu"]["level"] == 1
assert got["fuse/gemm_add_relu"]["level"] == 2
n = got["npukernelbench_level1/add"]
assert n["source"] == "NPUKernelBench" and n["level"] == 1 and len(n["cases"]) == 3, n
assert n["dtypes"] == ["float16", "float32", "int32"], n["dtypes"]
P
"$KGEN" tasks check --suite "$FX/mkb" > /dev/null || fail "check mkb"
# The same tree under another name, with what MultiKernelBench's current files hold: an optional tensor whose shape
# is null (left out of that case), and a case file kgen cannot read (a problem of that task, not a crash).
cp -r "$FX/mkb/reference" "$TMP/mkb_copy"
echo '{"inputs": [{"name": "x", "type": "tensor", "dtype": "float32", "shape": [4]}, {"name": "bias", "type": "tensor", "required": false, "dtype": "float32", "shape": null}]}' \
  >> "$TMP/mkb_copy/npukernelbench_level1/add.json"
cp "$FX/mkb/reference/npukernelbench_level1/add.py" "$TMP/mkb_copy/npukernelbench_level1/odd.py"
echo '[1, 2]' > "$TMP/mkb_copy/npukernelbench_level1/odd.json"
"$KGEN" tasks list --suite "$TMP/mkb_copy" --json > "$TMP/copy.json" 2> "$TMP/copy.err" || { cat "$TMP/copy.err"; fail "list renamed mkb"; }
"$PY" - "$TMP/copy.json" <<'P' || fail "renamed MKB tree"
import json, sys
got = {t["id"]: t for t in json.load(open(sys.argv[1]))}
assert got["activation/relu"]["source"] == "MultiKernelBench", got["activation/relu"]
cases = [c if isinstance(c, str) else c.get("name") for c in got["npukernelbench_level1/add"]["cases"]]
assert len(cases) == 4 and cases[3].endswith("bias=None"), cases
assert any("odd.json:1" in p for p in got["npukernelbench_level1/odd"].get("problems", [])), got["npukernelbench_level1/odd"]
P

# ---- the Python API: case overrides reach derived constants, NPUKernelBench groups, seeding ----
PYTHONPATH="$ROOT/python" "$PY" - "$FX" <<'P' || fail "python loader API"
import sys, torch
from kgen_eval import discover, load_case, make_model, run_reference
fx = sys.argv[1]
(t,) = discover(fx + "/kgen")
assert t.id == "activation/scaled" and t.level == 1 and [c.name for c in t.cases] == ["default", "dim=5", "dtype=float16"]
cls, init, (x,) = load_case(t, "dim=5")
assert x.shape == (2, 5) and init == [0.5], x.shape            # shape = (2, dim) follows the override
_, _, (h,) = load_case(t, 2)
assert h.dtype == torch.float16 and h.shape == (2, 8)
_, _, (x1,) = load_case(t, seed=7)
_, _, (x2,) = load_case(t, seed=7)
_, _, (x3,) = load_case(t, seed=8)
assert torch.equal(x1, x2) and not torch.equal(x1, x3)
out, up = run_reference(make_model(cls, init), [h])
assert up and out.dtype == torch.float16 and torch.allclose(out.float(), h.float() * 0.5)
# PERF: the perf shape, overrides of the default case, run on FakeTensors by the check
from kgen_eval.tasks import check_perf
assert t.perf == {"dim": 4096} and t.to_json()["perf"]["name"] == "dim=4096", t.perf
info, problems = check_perf(t)
assert not problems and info["outputs"][0]["shape"] == [2, 4096] and info["input_bytes"] == 2 * 4096 * 4, info
(add,) = [t for t in discover(fx + "/mkb") if t.source == "NPUKernelBench"]
cls, init, inputs = load_case(add, 2)
assert [tuple(i.shape) for i in inputs] == [(7, 33), (1, 33)] and inputs[0].dtype == torch.int32
P

# ---- mistakes are reported with file:line, exit status 1 ----
if "$KGEN" tasks check --suite "$FX/bad" > "$TMP/bad.txt" 2>&1; then fail "bad fixture passed the check"; fi
for want in "broken.py:5: LEVEL must be 1, 2 or 3" "broken.py:25: CASES\[0\] overrides 'm'" \
            "broken.py:27: PERF overrides 'size', which is not a module constant" \
            "broken.py:9: case default: output has 16 non-finite values" \
            "raises.py:10: case default: forward failed: RuntimeError" \
            "random_forward.py:9: case default: output differs between two runs" \
            "random_forward.py:25: case dtype=float16: no input has dtype float16" "3 with problems"; do
  grep -q "$want" "$TMP/bad.txt" || { cat "$TMP/bad.txt"; fail "bad fixture: no line matching: $want"; }
done
echo "PASS: kgen tasks"
