#!/usr/bin/env bash
# kgen data mutate end to end (docs/data.md): faults injected into correct sources (the swish and mse_loss op projects,
# tests/data/mutate's relu with hand-written flags, the relu expert tile program compiled), each mutant evaluated by
# kgen; every row kgen
# flagged carries kgen's diagnostic, the broken and the fixed file and an explanation naming the line; the fault classes
# that must be caught are caught with the expected verdict; the fixed file passes; bad options are precise errors.
# Usage: data_mutate_test.sh KGEN SOURCE_DIR
set -u
KGEN=$(realpath "$1")
SRC=$(realpath "$2")
PY=/usr/bin/python3
T=$(mktemp -d /tmp/kgen-data-mutate-XXXXXX)
trap 'rm -rf "$T"' EXIT
export KGEN_CACHE=$T/cache
fails=0
check() {  # check NAME COMMAND...
  local name=$1; shift
  if "$@"; then echo "ok   $name [${SECONDS}s]"; else echo "FAIL $name [${SECONDS}s]"; fails=$((fails + 1)); fi
}
py_check() {  # py_check NAME ARGS... <<'PY'
  local name=$1; shift
  if "$PY" - "$@"; then echo "ok   $name [${SECONDS}s]"; else echo "FAIL $name [${SECONDS}s]"; fails=$((fails + 1)); fi
}
cd "$T" || exit 1

"$KGEN" data mutate --candidates "$SRC/candidates" --filter activation/swish --out swish.jsonl >swish.txt 2>&1
check "mutate the swish op project: exit 0" test $? = 0
sed -n '1,20p' swish.txt
py_check "swish: every fault with a site made a mutant; the observable ones flagged with the expected verdicts; rows complete" \
  "$SRC/candidates/activation/swish" <<'PY'
import json, os, re, sys
src = sys.argv[1]
rows = [json.loads(l) for l in open("swish.jsonl")]
summary = open("swish.txt").read()
made = {m.group(1): tuple(int(m.group(k)) for k in range(2, 6))
        for m in re.finditer(r"^([a-z-]+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)", summary, re.M)}
# swish has no WaitFlag; every other fault has a site in its kernel or host
want = {"missing-enque", "missing-free", "unaligned-copy", "ub-overflow", "misspelt-api", "invented-api", "wrong-dtype",
        "missing-tail", "core-split-off-by-one", "tiling-blockdim", "tiling-field", "wrong-count"}
assert set(made) - {"all"} == want, sorted(made)
by = {}
for r in rows:
    p = r["provenance"]
    by[p["fault"]] = r
    assert set(r) == {"kind", "task_id", "file", "error_code", "error_message", "fixed_code", "explanation", "provenance"}, set(r)
    assert r["kind"] == "error-fix" and r["task_id"] == "activation/swish"
    assert p["verdict"] != "correct" and r["error_message"].strip(), p
    assert r["error_code"] != r["fixed_code"]
    assert r["fixed_code"] == open(os.path.join(src, r["file"])).read(), r["file"]   # the fix is the correct source
    assert r["explanation"].startswith(f"{r['file']}:{p['line']}: "), r["explanation"][:120]
# What each fault must give on swish. Two are invisible here, as on the chip: swish frees its input after the last
# AllocTensor a core makes at these shapes (missing-free), and a core launched past the split gets an empty share
# (tiling-blockdim); both must then be reported as not flagged.
expect = {"misspelt-api": "compile-error/", "invented-api": "compile-error/", "wrong-dtype": "compile-error/",
          "missing-enque": "runtime-error/queue", "unaligned-copy": "runtime-error/align",
          "ub-overflow": "runtime-error/ub-overflow", "missing-tail": "wrong-answer/",
          "core-split-off-by-one": "wrong-answer/", "tiling-field": "runtime-error/gm-out-of-bounds",
          "wrong-count": "runtime-error/uninit-read"}
for f, v in expect.items():
    assert f in by, f"{f} not flagged\n{summary}"
    got = by[f]["provenance"]["verdict"] + "/" + by[f]["provenance"]["error_category"]
    assert got == v, (f, got, v)
for f in ("missing-free", "tiling-blockdim"):
    assert f in by or f"activation/swish {f} " in summary, f
assert made["all"][0] == sum(v[0] for k, v in made.items() if k != "all")
print(f"     {len(rows)} rows")
PY
"$KGEN" data mutate --candidates "$SRC/candidates" --filter loss/mse_loss --faults missing-free,tiling-blockdim \
  --out mse.jsonl >mse.txt 2>&1
py_check "mse_loss: a dropped FreeTensor exhausts the queue, one core too many deadlocks" <<'PY'
import json
by = {json.loads(l)["provenance"]["fault"]: json.loads(l)["provenance"] for l in open("mse.jsonl")}
t = open("mse.txt").read()
assert by.get("missing-free", {}).get("error_category") == "queue", t
assert by.get("tiling-blockdim", {}).get("verdict") == "runtime-error", t
PY
"$KGEN" eval --task "$SRC/tasks/activation/swish.py" --candidate "$SRC/candidates/activation/swish" --trials 1 \
  --no-perf-shape >fixed.txt 2>&1
check "the fixed file (the source) passes" grep -q "^correct" fixed.txt

"$KGEN" data mutate --candidates "$SRC/tests/data/mutate" --filter activation/relu --faults missing-wait \
  --max-per-fault 2 --out wait.jsonl >wait.txt 2>&1
check "relu with hand-written flags (tests/data/mutate): exit 0" test $? = 0
py_check "relu with flags: a dropped WaitFlag before a pipe reads the buffer another pipe wrote is a race" <<'PY'
import json
rows = [json.loads(l) for l in open("wait.jsonl")]
t = open("wait.txt").read()
assert "missing-wait" in t and len(rows) == 2, t
for r in rows:
    p = r["provenance"]
    assert p["fault"] == "missing-wait" and p["verdict"] == "runtime-error" and p["error_category"] == "race", p
    assert "WaitFlag" in r["fixed_code"].splitlines()[p["line"] - 1]
    assert "race" in r["error_message"], r["error_message"][:300]
print(f"     {len(rows)} of 2 dropped WaitFlags flagged as races")
PY

"$KGEN" data mutate --candidates "$SRC/kernels" --filter activation/relu --faults missing-enque \
  --format chat --out relu.jsonl >relu.txt 2>&1
check "the relu expert program, compiled and mutated (chat format): exit 0" test $? = 0
py_check "relu: chat rows, user has kgen's diagnostic and the broken file, assistant the explanation and the fix" <<'PY'
import json
rows = [json.loads(l) for l in open("relu.jsonl") if l.strip() and json.loads(l)["provenance"]["task_id"] == "activation/relu"]
assert len(rows) == 1, open("relu.txt").read()
for r in rows:
    m = r["messages"]
    assert [x["role"] for x in m] == ["user", "assistant"]
    assert "kgen says:" in m[0]["content"] and "```cpp" in m[0]["content"]
    assert m[1]["content"].startswith(r["provenance"]["file"] + ":") and "```cpp " in m[1]["content"]
    assert r["provenance"]["source"].endswith("relu.tile")
PY

"$KGEN" data mutate --candidates "$SRC/candidates" --faults missing-enqueue --out x.jsonl >bad1.txt 2>&1
check "an unknown fault: exit 2, the known ones listed" bash -c "test $? = 2 && grep -q 'unknown fault .missing-enqueue.' bad1.txt && grep -q 'missing-enque' bad1.txt"
"$KGEN" data mutate --candidates "$SRC/candidates" --format yaml --out x.jsonl >bad2.txt 2>&1
check "an unknown format: exit 2" test $? = 2
"$KGEN" data mutate --candidates "$SRC/candidates" --filter no/such_task --out x.jsonl >bad3.txt 2>&1
check "a filter matching nothing: exit 2, no file written" bash -c "test $? = 2 && test ! -e x.jsonl"

echo "data mutate test: $fails failure(s)"
exit $((fails > 0))
