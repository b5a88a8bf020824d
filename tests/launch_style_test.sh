#!/usr/bin/env bash
# Kernel-launch style host (acl/acl.h + kernel<<<blockDim, l2ctrl, stream>>>(...)) compiled by `kgen cc`
# from two sources and run; then the same host with a too-small output buffer must be stopped by the
# emulator's GM bounds check at the kernel's store line.
# Usage: launch_style_test.sh KGEN SOURCE_DIR
set -euo pipefail
kgen="$1"
src="$2/tests/data/launch_style"
work="$(mktemp -d /tmp/kgen-launch-style-XXXXXX)"
trap 'rm -rf "$work"' EXIT
cd "$src"
"$kgen" cc main.cpp kernel.cpp -o "$work/prog"
out="$("$work/prog")"
echo "$out"
grep -q "launch_style: 0 mismatches" <<<"$out"

store_line="$(grep -n KERNEL_STORE_LINE kernel.cpp | cut -d: -f1)"
set +e
err="$("$work/prog" --short-output 2>&1)"
rc=$?
set -e
echo "$err" | head -3
if [[ $rc -ne 3 ]]; then echo "FAIL: expected exit status 3 from the emulator check, got $rc"; exit 1; fi
grep -q "error\[gm-out-of-bounds\] kernel.cpp:$store_line block 7 DataCopy: writes 1024 bytes starting 0 bytes past the end of a 31744-byte GM buffer" <<<"$err" || {
  echo "FAIL: expected error[gm-out-of-bounds] kernel.cpp:$store_line block 7 DataCopy"; exit 1; }
echo "launch_style_test: OK"
