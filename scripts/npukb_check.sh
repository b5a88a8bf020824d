#!/usr/bin/env bash
# Runs every answer of a local NPUKernelBench checkout (tasks/levelN/<Category>/<Op>/answer/0) unchanged against its
# task folder, as NPUKernelBench's harness checks it: `kgen bench --suite CHECKOUT/tasks --generator answer`. Prints
# one line per task (level, id, verdict, cases passed, modeled speedup, the first diagnostic), the totals by level
# and NPUKernelBench's weighted score; the bench's results.json and report.html stay in OUT (default: a temporary
# folder, removed).
# usage: scripts/npukb_check.sh NPUKERNELBENCH_DIR [KGEN] [JOBS] [FILTER] [OUT]
#   FILTER: a substring of the task ids (<Category>/<Op>), as `kgen bench --filter`.
set -u
NPUKB=${1:?usage: npukb_check.sh NPUKERNELBENCH_DIR [KGEN] [JOBS] [FILTER] [OUT]}
KGEN=${2:-$(cd "$(dirname "$0")/.." && pwd)/build/kgen}
JOBS=${3:-2}
FILTER=${4:-}
OUT=${5:-}
[ -d "$NPUKB/tasks" ] || { echo "error: $NPUKB/tasks is not a folder (pass the root of an NPUKernelBench checkout)"; exit 2; }
if [ -z "$OUT" ]; then OUT=$(mktemp -d); trap 'rm -rf "$OUT"' EXIT; fi
"$KGEN" bench --suite "$NPUKB/tasks" --generator answer --jobs "$JOBS" --filter "$FILTER" --out "$OUT" > "$OUT/bench.log" 2>&1
status=$?
if [ ! -f "$OUT/results.json" ]; then echo "error: kgen bench failed (status $status):"; tail -20 "$OUT/bench.log"; exit 2; fi
/usr/bin/python3 - "$OUT/results.json" <<'PY'
import collections, json, sys
doc = json.load(open(sys.argv[1]))
by_level = collections.defaultdict(lambda: [0, 0, 0, 0])
for r in sorted(doc["results"], key=lambda r: (r["level"], r["task_id"])):
    cases = r.get("cases", [])
    ok = sum(1 for c in cases if c.get("correct"))
    b = by_level[r["level"]]
    b[0] += 1; b[1] += r["verdict"] == "correct"; b[2] += ok; b[3] += len(cases)
    diag = next((d for d in r.get("diagnostics", []) if d.startswith(("error[", "cheating"))), "")
    speed = f" {r['speedup']:.2f}x (modeled)" if r["verdict"] == "correct" and r.get("speedup", 0) > 0 else ""
    print(f"L{r['level']} {r['task_id']}: {r['verdict']} {ok}/{len(cases)} cases{speed}"
          f"{(' — ' + diag[:220]) if diag else ''}")
for m in doc.get("missing", []):
    print(f"{m}: no answer/0 folder")
for lv in sorted(by_level):
    v = by_level[lv]
    print(f"level{lv}: {v[1]}/{v[0]} tasks pass every case, {v[2]}/{v[3]} cases pass")
t = [sum(v[i] for v in by_level.values()) for i in range(4)]
print(f"total: {t[1]}/{t[0]} tasks pass every case, {t[2]}/{t[3]} cases pass")
print(doc["metrics"].get("npukb_score", {}).get("note", ""))
PY
