#!/usr/bin/env bash
# Median wall time of `kgen cc` on the canonical example, compile+link and compile only (-c).
# Usage: bench/compile_time.sh [N=7] [KGEN=build/kgen] [SOURCE=examples/ascendc/add_double_buffer.cpp]
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-7}"
kgen="${2:-build/kgen}"
src="${3:-examples/ascendc/add_double_buffer.cpp}"
out="$(mktemp /tmp/kgen-bench-XXXXXX)"
trap 'rm -f "$out" "$out.o"' EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
time_runs() {   # time_runs ARGS...: prints one wall time in seconds per run
  for ((i = 0; i < n; i++)); do
    local t0 t1
    t0=$(date +%s.%N)
    "$kgen" cc "$@" >/dev/null
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
  done
}

link=$(time_runs "$src" -o "$out" | median)
compile=$(time_runs -c "$src" -o "$out.o" | median)
echo "kgen cc $src: compile+link median ${link} s, compile only (-c) median ${compile} s (N=$n)"
