#!/usr/bin/env bash
# The expert library (kernels/) through `kgen bench --generator expert` at the check shapes: every expert program of a
# fixed slice of the suite (every fifth task id in sorted order, plus two tasks without a program) evaluated, all
# correct but KNOWN_FAILING, every task of the slice without an expert program missing. TILE_EXPERT_ALL=1 runs the whole
# suite (as bench/expert_library.sh, in `make bench`, does with several trials, secret trials and the timing check);
# the slice keeps CI under its budget. One trial per case and no secret trial: the programs are ours, not hostile.
# The check that each one's timing-only trace equals its full run's (--timing-check) is bench/expert_library.sh's; in
# CI the candidates (tests/candidates_test.sh) and the examples (tests/timing_test.sh) keep it. Then a slice at the
# perf shapes (timing-only at KernelBench's sizes): an elementwise program lands near eager (HBM-bound) and a matmul is
# cube- or HBM-bound.
set -u
KGEN=$1
SRC=$2
PY=/usr/bin/python3

# Expert programs that fail a case of their task for a known limit of the language (space-separated task ids, e.g.
# "reduce/sum_reduction"); when the compiler learns it, remove it here: the test then wants it correct.
KNOWN_FAILING=""

T=$(mktemp -d /tmp/kgen-tile-expert-XXXXXX)
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

# ---- kgen bench --generator expert over the slice (or the whole suite) ----
# The slice is a suite of its own: links to the chosen task files under their category folders.
mkdir -p suite
"$PY" - "$SRC" "${TILE_EXPERT_ALL:-0}" <<'PY' || exit 1
import os, sys
src, whole = sys.argv[1], sys.argv[2] == "1"
def ids(root, ext):
    return sorted(os.path.relpath(os.path.join(d, f), root)[: -len(ext)]
                  for d, _, fs in os.walk(root) for f in fs if f.endswith(ext) and not f.startswith("_"))
tasks, experts = ids(os.path.join(src, "tasks"), ".py"), set(ids(os.path.join(src, "kernels"), ".tile"))
with_program = [t for t in tasks if t in experts]
chosen = tasks if whole else with_program[::5] + [t for t in tasks if t not in experts][:2]
for t in chosen:
    os.makedirs(os.path.join("suite", os.path.dirname(t)), exist_ok=True)
    os.symlink(os.path.join(src, "tasks", t + ".py"), os.path.join("suite", t + ".py"))
print(f"     {len(chosen)} of {len(tasks)} tasks" + ("" if whole else " (TILE_EXPERT_ALL=1 runs them all)"))
PY
t0=$(date +%s)
"$KGEN" bench --suite suite --generator expert --out bench --jobs 2 --trials 1 --secret-trials 0 --no-perf-shape \
  > bench.txt 2> bench.err
rc=$?
t1=$(date +%s)
sed -n '1,3p' bench.txt
check "bench --generator expert: exit 0 ($((t1 - t0)) s)" test "$rc" = 0
py_check "bench --generator expert: every expert program evaluated; correct but KNOWN_FAILING; the rest missing" "$SRC" "$KNOWN_FAILING" <<'PY'
import json, os, sys
src, known = sys.argv[1], set(sys.argv[2].split())
def ids(root, ext):
    out = set()
    for d, _, fs in os.walk(root):
        for f in fs:
            if f.endswith(ext) and not f.startswith("_"):
                out.add(os.path.relpath(os.path.join(d, f), root)[: -len(ext)])
    return out
tasks = ids("suite", ".py")
experts = ids(os.path.join(src, "kernels"), ".tile") & tasks
known &= tasks
all_tasks = ids(os.path.join(src, "tasks"), ".py")
r = json.load(open("bench/results.json"))
missing = set(r["missing"])
by = {}
for x in r["results"]:
    by.setdefault(x["task_id"], []).append(x)
bad = []
def report(what, items):
    if items:
        bad.append(f"{what}: {sorted(items)}")
report("KNOWN_FAILING names no expert program", known - experts)
report("evaluated without an expert program", set(by) - experts)
report("expert program not evaluated", (experts & tasks) - set(by))
report("missing, but it has an expert program", missing & experts)
report("neither evaluated nor missing", tasks - experts - missing)
report("expert programs without a task", ids(os.path.join(src, "kernels"), ".tile") - all_tasks)
correct = 0
for t, xs in sorted(by.items()):
    if t not in experts:
        continue
    for x in xs:
        kind, verdict = x["candidate_kind"], x["verdict"]
        first = (x["diagnostics"] or [""])[0][:200]
        correct += verdict == "correct"
        if kind != "tile":
            bad.append(f"{t}: candidate kind {kind}, not tile")
        if t in known and verdict == "correct":
            bad.append(f"{t}: correct: remove it from KNOWN_FAILING")
        if t not in known and verdict != "correct":
            bad.append(f"{t}: {verdict}: {first}")
print(f"     {len(experts)} expert programs, {len(by)} tasks evaluated, {len(missing)} missing, {correct} correct")
for b in bad:
    print("     " + b[:600])
sys.exit(1 if bad else 0)
PY

# ---- a slice at the perf shapes: the headline speedup is the timing-only run's at KernelBench's size ----
for t in activation/relu matmul/square_matmul; do
  "$KGEN" bench --suite "$SRC/tasks" --generator expert --filter "$t" --out "perf-${t//\//_}" --jobs 1 --trials 1 \
    > "perf-${t//\//_}.txt" 2>&1
  check "bench --filter $t at its perf shape: exit 0" test "$?" = 0
done
py_check "perf shapes: relu ~1.0x of eager and HBM-bound; square_matmul timed at N=4096; launch shares under 1 %" <<'PY'
import json
def one(d):
    rs = json.load(open(f"{d}/results.json"))["results"]
    assert len(rs) == 1, len(rs)
    return rs[0]
for d, shape in (("perf-activation_relu", "batch_size=4096,dim=393216"), ("perf-matmul_square_matmul", "N=4096")):
    r = one(d); p = r["perf"]
    assert r["verdict"] == "correct", (d, r["verdict"], r["diagnostics"][:1])
    assert p["shape"] == shape and not p["skipped"], (d, p["shape"], p["skipped"])
    assert r["speedup_shape"] == "perf" and abs(r["speedup"] - p["speedup"]) < 1e-9, (d, r["speedup_shape"])
    assert p["modeled_us"] > 0 and p["eager_modeled_us"] > 0 and p["launch_us"] < 0.01 * p["modeled_us"], (d, p)
    print(f"     {d}: {p['speedup']:.2f}x at {p['shape']} ({p['bound']}), {p['seconds']:.1f} s, check shapes {r['check_speedup']:.2f}x")
relu = one("perf-activation_relu")["perf"]
assert relu["bound"] == "HBM" and 0.9 <= relu["speedup"] <= 1.1, relu
PY

echo "tile expert test: $fails failure(s)"
exit $((fails > 0))
