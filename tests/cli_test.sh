#!/usr/bin/env bash
set -euo pipefail
"$1" version | grep -q '^kgen '
