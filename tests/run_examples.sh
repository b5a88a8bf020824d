#!/usr/bin/env bash
# Runs every AscendC example through `kgen examples run`; fails if any example fails.
set -euo pipefail
"$1" examples run --dir "$2" -j 2
