#!/usr/bin/env bash
# Scale-out figures (docs/scale-out.md): the results store's cost per result (SQLite file vs a local PostgreSQL server,
# bench_store), then evaluations per minute through `kgen bench --cluster` with 1, 2 and 4 Dask workers (one thread
# each) on this machine, beside a local `kgen bench --jobs 2`, over the same slice of fresh evaluations (--rerun).
# Every worker and the local run share one warm kgen cache, so the figures are evaluation, not reference, time.
# Used by `make bench`.
# Usage: bench/scale_out.sh [BUILD_DIR=build] [FILTER=] (default: every candidate of candidates/)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
filter="${2:-}"
src=$(pwd)
kgen="$src/$build/kgen"
T=$(mktemp -d /tmp/kgen-scale-out-bench-XXXXXX)
chmod 711 "$T"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  scripts/pg_local.sh stop "$T/pg" >/dev/null 2>&1 || true
  rm -rf "$T"
}
trap cleanup EXIT
cmake --build "$build" -j2 --target kgen bench_store >/dev/null

url=$(scripts/pg_local.sh start "$T/pg")
echo "== results store, per result (medians of 5): SQLite file vs PostgreSQL on loopback ($url)"
KGEN_BENCH_PG_URL=$url "$build/bench/bench_store" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_color=false 2>/dev/null | grep -E "median"

export KGEN_CACHE=$T/cache
common=(bench --filter "$filter" --trials 1 --secret-trials 0 --no-perf-shape --rerun)
"$kgen" "${common[@]}" --out "$T/warm" >/dev/null 2>&1   # references and builds cached once
elapsed() { /usr/bin/python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.3f}')" "$1" "$2"; }
per_min() {  # per_min OUT SECONDS: evaluations per minute of that run
  /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
n = json.load(open(sys.argv[1] + "/results.json"))["evaluated"]
print(f"{n} evaluations, {n * 60 / float(sys.argv[2]):.1f} per minute")
PY
}
t0=$(date +%s.%N); "$kgen" "${common[@]}" --out "$T/local" --jobs 2 >/dev/null 2>&1; t1=$(date +%s.%N)
echo "== evaluations per minute over kgen bench --filter '$filter' (fresh evaluations, warm cache), $(nproc) cores"
echo "local --jobs 2:      $(per_min "$T/local" "$(elapsed "$t0" "$t1")") ($(elapsed "$t0" "$t1") s)"

dask-scheduler --host 127.0.0.1 --port 0 --no-dashboard --scheduler-file "$T/sched.json" >"$T/sched.log" 2>&1 &
pids+=($!)
disown $!
for _ in $(seq 1 100); do [ -s "$T/sched.json" ] && break; sleep 0.1; done
sched=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["address"])' "$T/sched.json")
running=0
for n in 1 2 4; do
  while [ "$running" -lt "$n" ]; do
    running=$((running + 1))
    KGEN="$kgen" dask-worker "$sched" --nthreads 1 --no-nanny --local-directory "$T/w$running" >"$T/w$running.log" 2>&1 &
    pids+=($!)
    disown $!
  done
  for _ in $(seq 1 100); do
    "$kgen" cluster check --scheduler "$sched" 2>/dev/null | grep -q "^scheduler .*: $n worker(s)" && break
    sleep 0.3
  done
  # the first round also fills the workers' job folders (their compiled libraries), as the warm-up did locally
  [ "$n" = 1 ] && "$kgen" "${common[@]}" --out "$T/cwarm" --cluster "$sched" >/dev/null 2>&1
  t0=$(date +%s.%N); "$kgen" "${common[@]}" --out "$T/c$n" --cluster "$sched" >/dev/null 2>&1; t1=$(date +%s.%N)
  echo "cluster, $n worker(s): $(per_min "$T/c$n" "$(elapsed "$t0" "$t1")") ($(elapsed "$t0" "$t1") s)"
done
