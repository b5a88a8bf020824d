#!/usr/bin/env bash
# The expert library (kernels/) through `kgen bench --generator expert` over the whole suite with several trials (CI's
# tests/tile_test.sh runs one): pass@1, fast_p and the geomean speedup per category, modeled on the Ascend910B2.
# Used by `make bench`.
# Usage: bench/expert_library.sh [BUILD_DIR=build] [TRIALS=5] [JOBS=2]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
trials="${2:-5}"
jobs="${3:-2}"
out=$(mktemp -d /tmp/kgen-expert-library-XXXXXX)
trap 'rm -rf "$out"' EXIT
KGEN_CACHE="$out/cache" "$build/kgen" bench --suite tasks --generator expert --out "$out/bench" --jobs "$jobs" \
  --trials "$trials" | grep -v "^\["
