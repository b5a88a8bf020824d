#!/usr/bin/env bash
# kgen data build end to end (docs/data.md) on a three-task suite (activation relu, leaky_relu, hardtanh, linked from
# tasks/): the expert library evaluated, splits by task with a hold-out and a validation draw, no task in two splits
# and no train prompt showing a held-out solution; sft rows of both targets (the compiled AscendC reply evaluated
# again as a candidate here), reasoning rows whose numbers are TilingFunc's, error-fix rows from the mutate fixture,
# RL prompt rows for verl (parquet read back from the format specification, tests/parquet_read.py, equal to
# rl.jsonl) and TRL; the card; a rerun reuses the stores; bad options are precise errors.
# Usage: data_build_test.sh KGEN SOURCE_DIR
set -u
KGEN=$(realpath "$1")
SRC=$(realpath "$2")
PY=/usr/bin/python3
T=$(mktemp -d /tmp/kgen-data-build-XXXXXX)
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
mkdir -p suite/activation
for t in relu leaky_relu hardtanh; do ln -s "$SRC/tasks/activation/$t.py" suite/activation/$t.py; done

"$KGEN" data build --out ds --suite suite --hold-out activation/relu --validation 0.5 --seed 3 \
  --mutate "$SRC/tests/data/mutate" >build.txt 2>&1
check "kgen data build: exit 0" test $? = 0
cat build.txt | grep -v "^kgen data build: expert library" | head -30

py_check "splits by task: relu held out, one validation task, no task in two splits, every row in its task's split" <<'PY'
import json, os
card = json.load(open("ds/card.json"))
t = card["tasks"]
assert t["test"] == ["activation/relu"], t
assert len(t["validation"]) == 1 and len(t["train"]) == 1, t
seen = {}
for split in ("train", "validation", "test"):
    for f in os.listdir(f"ds/{split}"):
        if not f.endswith(".jsonl"):
            continue
        for line in open(f"ds/{split}/{f}"):
            r = json.loads(line)
            task = (r.get("provenance") or r.get("extra_info") or {}).get("task_id") or r.get("task_id")
            assert task, (f, r.keys())
            assert task in t[split], (split, f, task)
            seen.setdefault(task, set()).add(split)
assert all(len(s) == 1 for s in seen.values()), seen
# no prompt shows a validation or test task's solution
hidden = t["validation"] + t["test"]
for split in ("train", "validation", "test"):
    for f in os.listdir(f"ds/{split}"):
        if f.endswith(".jsonl"):
            text = open(f"ds/{split}/{f}").read()
            for h in hidden:
                assert f"### Example: {h}\\n" not in text, (split, f, h)
print("     tasks:", {k: len(v) for k, v in t.items()})
PY

py_check "sft rows of both targets; the compiled AscendC reply is three files with the helpers inlined" <<'PY'
import json, glob
rows = [json.loads(l) for f in glob.glob("ds/*/sft.jsonl") for l in open(f)]
kinds = {r["provenance"].get("candidate_kind") for r in rows}
assert kinds == {"tile", "tile-compiled"}, kinds
for r in rows:
    p = r["provenance"]
    assert p["verdict"] == "correct" and p["soc"] == "Ascend910B2" and p["task_hash"] and p["candidate_hash"], p
    reply = r["messages"][-1]["content"]
    assert r["messages"][-1]["role"] == "assistant"
    if p["candidate_kind"] == "tile-compiled":
        assert reply.count("```cpp ") == 3, reply[:200]
        assert "kgen_tile.h (kgen's tile helpers, inlined)" in reply and '#include "kgen_tile.h"' not in reply
        assert "op_kernel/" in r["messages"][1]["content"] or "AscendC" in r["messages"][0]["content"]
    else:
        assert reply.startswith("```tile\n")
print(f"     {len(rows)} sft rows")
PY

# The compiled reply of one task, as a model would send it: parsed and evaluated by kgen generate's path.
"$PY" - <<'PY' >reply.txt
import json
for l in open("ds/train/sft.jsonl"):
    r = json.loads(l)
    if r["provenance"]["candidate_kind"] == "tile-compiled":
        print(r["messages"][-1]["content"]); print(r["provenance"]["task_id"], file=open("reply_task", "w")); break
PY
TASK=$(cat reply_task)
mkdir -p reply
"$PY" - "$T/reply" <<'PY'
import re, sys, os
text = open("reply.txt").read()
for m in re.finditer(r"```cpp (\S+)\n(.*?)\n```", text, re.S):
    p = os.path.join(sys.argv[1], m.group(1)); os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "w").write(m.group(2) + "\n")
PY
"$KGEN" eval --task "$SRC/tasks/$TASK.py" --candidate reply --trials 1 --no-perf-shape >reply_eval.txt 2>&1
check "the compiled AscendC reply ($TASK) passes as an op project of its own" grep -q "^correct" reply_eval.txt

py_check "reasoning rows: the numbers are TilingFunc's at the perf shape and the SoC's" <<'PY'
import json, glob, re
rows = [json.loads(l) for f in glob.glob("ds/*/reasoning.jsonl") for l in open(f)]
assert len(rows) == 3, len(rows)
for r in rows:
    text, p = r["reasoning"], r["provenance"]
    assert r["messages"][-1]["content"].startswith("<think>\n" + text + "</think>\n\n```cpp ")
    assert p["reasoning_shape"] == "x=float32:4096,393216", p
    assert "48 vector cores" in text and "196608 bytes" in text, text[:400]
    tile = int(re.search(r"chose (\d+) elements per tile", text).group(1))
    assert f"uint32_t tileUnits = {tile}" in text
    assert "1610612736 elements in all" in text and "block dim is 48" in text, text
print(f"     {len(rows)} reasoning rows")
PY

"$KGEN" tile explain "$SRC/kernels/activation/hardtanh.tile" --input-shape x=float16:1000,999 >explain.txt 2>&1
check "kgen tile explain at another shape: exit 0" test $? = 0
"$KGEN" tile compile "$SRC/kernels/activation/hardtanh.tile" -o proj >/dev/null 2>&1
"$KGEN" op run proj --input-shape x=float16:1000,999 --tiling-only --json >tiling.json 2>tiling.txt
py_check "tile explain states what op run --tiling-only reads back: tile, per-core share, tail, block dim" <<'PY'
import json, re
e = open("explain.txt").read()
j = json.load(open("tiling.json"))
f = {x["name"]: int(x["value"]) for x in j["tiling"]}
assert j["block_dim"] > 0 and f["total"] == 999000, f
assert f"chose {f['tileUnits']} elements per tile" in e, e
assert f"{f['total']} elements in all, {f['perCore']} per core" in e and f"block dim is {j['block_dim']} of the 48" in e, e
cores = -(-f["total"] // f["perCore"]); last = f["total"] - (cores - 1) * f["perCore"]
assert (f"the last core gets the remaining {last}" in e) or last == f["perCore"], e
assert "Here the inputs are x=float16:1000,999." in e, e
PY

py_check "error-fix rows from the mutate fixture, in the held-out task's split" <<'PY'
import json
rows = [json.loads(l) for l in open("ds/test/error_fix.jsonl")]
assert rows and all(r["task_id"] == "activation/relu" and r["error_message"].strip() for r in rows), len(rows)
card = json.load(open("ds/card.json"))
assert sum(card["facets"]["error class"]["error-fix"].values()) == len(rows), card["facets"]
print(f"     {len(rows)} error-fix rows")
PY

"$PY" "$SRC/tests/parquet_read.py" ds/train/rl.parquet >train_parquet.jsonl
check "rl.parquet read from the specification" test $? = 0
py_check "verl rows: parquet = rl.jsonl, verl's fields, labels kgen serve takes; TRL prompt rows" <<'PY'
import json
for split in ("train", "validation", "test"):
    js = [json.loads(l) for l in open(f"ds/{split}/rl.jsonl")]
    assert len(js) == 2, (split, len(js))   # one task, two targets
    for r in js:
        assert set(r) == {"data_source", "prompt", "ability", "reward_model", "extra_info"}, set(r)
        assert r["reward_model"]["style"] == "rule"
        target, task = r["reward_model"]["ground_truth"].split(":", 1)
        assert target == r["extra_info"]["target"] and task == r["extra_info"]["task_id"] and r["extra_info"]["split"] == split
        assert [m["role"] for m in r["prompt"]] == ["system", "user"]
    trl = [json.loads(l) for l in open(f"ds/{split}/trl_prompts.jsonl")]
    assert [t["label"] for t in trl] == [r["reward_model"]["ground_truth"] for r in js]
back = [json.loads(l) for l in open("train_parquet.jsonl")]
want = [json.loads(l) for l in open("ds/train/rl.jsonl")]
assert back == want, (back[0].keys(), want[0].keys())
PY
"$PY" "$SRC/tests/parquet_read.py" ds/train/rl.parquet --schema >schema.json
py_check "the parquet schema: verl's columns, prompt a three-level LIST of role/content structs" <<'PY'
import json
s = json.load(open("schema.json"))
cols = [k["name"] for k in s["kids"]]
assert cols == ["data_source", "prompt", "ability", "reward_model", "extra_info"], cols
p = s["kids"][1]
assert p["conv"] == 3 and p["kids"][0]["name"] == "list" and p["kids"][0]["rep"] == 2, p
assert [k["name"] for k in p["kids"][0]["kids"][0]["kids"]] == ["role", "content"]
PY

check "the card: README.md with splits, facets and the token histogram" \
  grep -q "## Token lengths" ds/README.md
py_check "the card's counts are the files' rows" <<'PY'
import json, os
card = json.load(open("ds/card.json"))
names = {"sft": "sft.jsonl", "reasoning": "reasoning.jsonl", "error-fix": "error_fix.jsonl", "rl": "rl.jsonl"}
for split, kinds in card["rows"].items():
    for kind, n in kinds.items():
        if kind in names:
            assert sum(1 for _ in open(f"ds/{split}/{names[kind]}")) == n, (split, kind, n)
assert card["token_histogram"]["reasoning"], card["token_histogram"]
PY

# A rerun reuses the expert store (nothing evaluated again) and gives the same rows.
cp ds/train/sft.jsonl sft_first.jsonl
"$KGEN" data build --out ds --suite suite --hold-out activation/relu --validation 0.5 --seed 3 --no-mutate >build2.txt 2>&1
check "rerun: exit 0" test $? = 0
check "rerun: the same train sft rows" cmp -s sft_first.jsonl ds/train/sft.jsonl

# A store judged by another kgen version: its rows are skipped and counted unless --any-version.
cp ds/work/expert/results.db old.db
"$PY" - <<'PY'
import json, sqlite3
db = sqlite3.connect("old.db")
for key, rj in db.execute("select rowid, result_json from results").fetchall():
    j = json.loads(rj); j["kgen_version"] = "0.0.1"
    db.execute("update results set kgen_version = '0.0.1', result_json = ? where rowid = ?", (json.dumps(j), key))
db.commit()
PY
"$KGEN" data export --store old.db --suite suite --out old.jsonl >old.txt 2>&1
check "another kgen version's results: skipped, counted, the flag named" \
  bash -c "grep -q '0 row(s)' old.txt && grep -q 'judged by kgen 0.0.1, not this kgen .* (--any-version keeps them)' old.txt"
"$KGEN" data export --store old.db --suite suite --out old.jsonl --any-version >old2.txt 2>&1
check "--any-version exports them, the version in the provenance" \
  bash -c "grep -q '3 row(s)' old2.txt && grep -q '\"kgen_version\":\"0.0.1\"' old.jsonl"

"$KGEN" data build --out bad --suite suite --validation 1.5 >bad1.txt 2>&1
check "--validation 1.5: exit 2, says the range" bash -c "test $? = 2 && grep -q 'fraction in \[0, 1)' bad1.txt"
"$KGEN" data build --out bad --suite suite --filter nosuchtask >bad2.txt 2>&1
check "a filter matching nothing: exit 2, names it" bash -c "test $? = 2 && grep -q 'matches --filter nosuchtask' bad2.txt"
"$KGEN" data build --out bad --suite suite --store "$T/none.db" --no-mutate >bad3.txt 2>&1
check "a store that does not exist: exit 2, no store created" bash -c "test $? = 2 && grep -q 'no such results store' bad3.txt && test ! -e $T/none.db"
"$KGEN" op run proj --tiling-only --timing-only --input-shape x=float32:8 >bad4.txt 2>&1
check "--tiling-only with --timing-only: exit 2, says why" bash -c "test $? = 2 && grep -q 'stops before the kernel runs' bad4.txt"

echo "data_build_test: $fails failure(s)"
exit $((fails > 0))
