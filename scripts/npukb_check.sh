#!/usr/bin/env bash
# Runs every answer of a local NPUKernelBench checkout (tasks/levelN/<Category>/<Op>/answer/0) unchanged through
# `kgen eval` against its task folder, as NPUKernelBench's harness checks it, and prints one line per task (verdict,
# cases passed, the first diagnostic), then the totals by level.
# usage: scripts/npukb_check.sh NPUKERNELBENCH_DIR [KGEN] [JOBS] [FILTER-REGEX]
set -u
NPUKB=${1:?usage: npukb_check.sh NPUKERNELBENCH_DIR [KGEN] [JOBS] [FILTER-REGEX]}
KGEN=${2:-$(cd "$(dirname "$0")/.." && pwd)/build/kgen}
JOBS=${3:-2}
FILTER=${4:-.}
[ -d "$NPUKB/tasks" ] || { echo "error: $NPUKB/tasks is not a folder (pass the root of an NPUKernelBench checkout)"; exit 2; }
OUT=$(mktemp -d); trap 'rm -rf "$OUT"' EXIT
find "$NPUKB/tasks" -path '*/answer/0' -type d | sed 's|/answer/0$||' | sort | grep -E "$FILTER" > "$OUT/tasks"
one() {   # one TASK_DIR: writes OUT/<n>.json
  local t=$1 n; n=$(echo "$t" | md5sum | cut -c1-12)
  timeout 1800 "$KGEN" eval --task "$t" --candidate "$t/answer/0" --json > "$OUT/$n.json" 2> "$OUT/$n.err"
  echo "$t" > "$OUT/$n.task"
}
export -f one; export KGEN OUT
xargs -a "$OUT/tasks" -P "$JOBS" -I{} bash -c 'one "$@"' _ {}
/usr/bin/python3 - "$OUT" "$NPUKB/tasks" <<'PY'
import json, os, sys, collections
out, root = sys.argv[1], sys.argv[2]
rows, by_level = [], collections.defaultdict(lambda: [0, 0, 0, 0])
for f in sorted(os.listdir(out)):
    if not f.endswith(".task"):
        continue
    task = open(os.path.join(out, f)).read().strip()
    rel = os.path.relpath(task, root)
    try:
        r = json.load(open(os.path.join(out, f[:-5] + ".json")))
    except (OSError, ValueError):
        err = open(os.path.join(out, f[:-5] + ".err")).read().strip().splitlines()
        r = {"verdict": "no-result", "cases": [], "diagnostics": err[-1:] if err else []}
    cases = r.get("cases", [])
    ok = sum(1 for c in cases if c.get("correct"))
    level = rel.split(os.sep)[0]
    b = by_level[level]
    b[0] += 1; b[1] += r.get("verdict") == "correct"; b[2] += ok; b[3] += len(cases)
    diag = next((d for d in r.get("diagnostics", []) if d.startswith(("error[", "cheating"))), "")
    rows.append(f"{rel}: {r.get('verdict')} {ok}/{len(cases)} cases{(' — ' + diag[:220]) if diag else ''}")
print("\n".join(rows))
t = [sum(v[i] for v in by_level.values()) for i in range(4)]
for lv in sorted(by_level):
    v = by_level[lv]
    print(f"{lv}: {v[1]}/{v[0]} tasks pass every case, {v[2]}/{v[3]} cases pass")
print(f"total: {t[1]}/{t[0]} tasks pass every case, {t[2]}/{t[3]} cases pass")
PY
