#!/usr/bin/env bash
# Evaluation throughput of `kgen bench`: candidates fully evaluated per minute (static checks, host and kernel
# compile, 5 trials per case on the emulator, comparison, modeled times) on the level-1 vector tasks of the bundled
# suite, with --jobs 2. Every candidate is a fresh copy (a comment added to its sources), so nothing comes from the
# build cache or the results store; the PyTorch reference data is warmed first, as in a generation loop where each
# task sees many candidates. Then where the time goes, from the results' stage timings.
# Usage: bench/eval_throughput.sh [BUILD_DIR=build] [JOBS=2] [KGEN BENCH OPTIONS...]
# (e.g. `--secret-trials 0` or `--unsafe-no-sandbox --secret-trials 0` to price the sandbox's layers one by one, or
# another BUILD_DIR to compare builds; the options go to both bench runs).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
jobs="${2:-2}"
shift $(( $# < 2 ? $# : 2 ))
extra=("$@")
kgen="$build/kgen"
T=$(mktemp -d /tmp/kgen-throughput-XXXXXX)
trap 'rm -rf "$T"' EXIT
export KGEN_CACHE=$T/cache
# Level-1 vector candidates of the bundled set (no cube, no level 2/3 tasks).
mapfile -t cands < <(/usr/bin/python3 - <<'PY'
import os, re
for cat in sorted(os.listdir("candidates")):
    d = os.path.join("candidates", cat)
    if not os.path.isdir(d) or cat in ("matmul", "convolution", "attention", "arch"):
        continue
    for name in sorted(os.listdir(d)):
        task = os.path.join("tasks", cat, name + ".py")
        if os.path.isdir(os.path.join(d, name)) and os.path.exists(task) and \
           re.search(r"^LEVEL\s*=\s*1\b", open(task).read(), re.M):
            print(cat + "/" + name)
PY
)
echo "== $((${#cands[@]})) level-1 vector candidates, --jobs $jobs, 5 trials per case ${extra[*]:-}"
# Warm the reference data (and show the verdicts once).
"$kgen" bench --candidates candidates --filter "" --jobs "$jobs" --out "$T/warm" "${extra[@]}" > "$T/warm.txt" 2>&1 || true
grep -E "^verdicts" "$T/warm.txt"
# Fresh copies: same kernels, new content hashes.
for c in "${cands[@]}"; do
  mkdir -p "$T/fresh/$(dirname "$c")"
  cp -rL "candidates/$c" "$T/fresh/$c"
  find "$T/fresh/$c" -name '*.cpp' -exec sh -c 'echo "// throughput copy $$" >> "$1"' _ {} \;
done
t0=$(date +%s.%N)
"$kgen" bench --suite tasks --candidates "$T/fresh" --jobs "$jobs" --out "$T/out" "${extra[@]}" > "$T/run.txt" 2>&1
t1=$(date +%s.%N)
/usr/bin/python3 - "$T/out/results.json" "$t0" "$t1" "$jobs" <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
rs = d["results"]
wall = float(sys.argv[3]) - float(sys.argv[2])
n = len(rs)
print(f"evaluated {n} fresh candidates in {wall:.1f} s wall: {n / wall * 60:.1f} candidates per minute "
      f"(target >= 30 with --jobs 2); {sum(r['verdict'] == 'correct' for r in rs)} correct")
secs = [r["seconds"] for r in rs]
print(f"per candidate: median {statistics.median(secs):.2f} s, min {min(secs):.2f} s, max {max(secs):.2f} s "
      f"(each job's own wall time; {sys.argv[4]} run at once)")
tot = sum(secs)
parts = {k: sum(r.get(k, 0) for r in rs) for k in ("reference_s", "build_s", "run_s")}
other = tot - sum(parts.values())
print("where the time goes (sum over candidates):")
for k, label in (("build_s", "compiling host + kernel libraries (g++, in parallel)"),
                 ("run_s", "runner processes: load, tiling, emulated kernel, outputs"),
                 ("reference_s", "PyTorch reference lookup (cached data)")):
    print(f"  {label:<58} {parts[k]:7.1f} s  {100 * parts[k] / tot:5.1f}%")
print(f"  {'static checks, comparison, modeled eager time, store':<58} {other:7.1f} s  {100 * other / tot:5.1f}%")
cases = sum(len(r["cases"]) for r in rs)
print(f"{cases} cases x 5 trials = {cases * 5} emulated launches; "
      f"{parts['run_s'] / max(cases * 5, 1) * 1000:.0f} ms per launch on average")
PY
