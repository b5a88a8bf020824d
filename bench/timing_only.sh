#!/usr/bin/env bash
# Timing-only runs at benchmark sizes (docs/emulator.md "Timing-only runs"): per program, the modeled time, the wall
# time of `kgen op run --timing-only` (median of N), the emulation's share of it and the runner's peak RSS.
# Sizes: KernelBench's level-1 activation inputs (4096 x 393216 float32, 6.4 GB a tensor; docs/sources.md S54) and a
# 4096^3 float16 matmul. Used by `make bench`.
# Usage: bench/timing_only.sh [BUILD_DIR=build] [N=3]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
n="${2:-3}"
cmake --build "$build" -j2 --target kgen kgen-oprun >/dev/null
W=$(mktemp -d /tmp/kgen-bench-timing-XXXXXX)
trap 'rm -rf "$W"' EXIT
export KGEN_CACHE="$W/cache"
"$build/kgen" tile compile kernels/matmul/matmul.tile -o "$W/matmul" >/dev/null
"$build/kgen" tile compile kernels/activation/softmax.tile -o "$W/softmax" >/dev/null
# name | project | kgen op run arguments
cases=(
  "leaky_relu|candidates/activation/leaky_relu|--input-shape x=float32:4096,393216 --attr negative_slope=0.01"
  "gelu|candidates/activation/gelu|--input-shape x=float32:4096,393216"
  "sigmoid|candidates/activation/sigmoid|--input-shape x=float32:4096,393216"
  "softmax (tile)|$W/softmax|--input-shape x=float32:4096,393216"
  "matmul 4096^3 f16 (tile)|$W/matmul|--input-shape a=float16:4096,4096 --input-shape b=float16:4096,4096"
)
printf "%-26s %12s %8s %10s %10s %9s %10s\n" program "modeled us" bound "records" "wall s" "emul s" "RSS MiB"
for c in "${cases[@]}"; do
  IFS='|' read -r name proj args <<<"$c"
  # shellcheck disable=SC2086
  "$build/kgen" op run "$proj" $args --timing-only --json >/dev/null 2>&1   # the build, cached for the timed runs
  walls=()
  for _ in $(seq "$n"); do
    t0=$(date +%s%N)
    # shellcheck disable=SC2086
    "$build/kgen" op run "$proj" $args --timing-only --json >"$W/out.json" 2>"$W/err.txt" || { cat "$W/err.txt"; exit 1; }
    walls+=("$(( ($(date +%s%N) - t0) / 1000000 ))")   # ms
  done
  med=$(printf "%s\n" "${walls[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)] / 1000}')
  /usr/bin/python3 - "$W/out.json" "$name" "$med" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
m = j["modeled"]
print(f'{sys.argv[2]:<26} {m["us"]:12.1f} {m["bound"]:>8} {m["records"]:10d} {float(sys.argv[3]):10.2f} '
      f'{m["emulate_s"]:9.2f} {m["peak_rss_mb"]:10.0f}')
PY
done
echo "(modeled on Ascend910B2, timing-only; wall = the whole kgen op run: sandbox, emulation, trace transfer, model;"
echo " emul = kgen-oprun's own time; RSS = kgen-oprun's peak as it reports it; median of $n runs)"
