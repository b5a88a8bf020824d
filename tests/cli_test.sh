#!/usr/bin/env bash
# End-to-end checks of the kgen command line: help on every subcommand, version, cc's errors and SoC flag.
set -euo pipefail
KGEN=$1; ROOT=$2
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$KGEN" version | grep -Eq '^kgen [0-9]+\.[0-9]+\.[0-9]+$' || fail "version"
"$KGEN" --help | grep -q 'cc' || fail "--help lists cc"
for sub in version cc examples "examples run" "examples list"; do
  "$KGEN" $sub --help >/dev/null || fail "$sub --help"
done
"$KGEN" cc --help | grep -q -- '--soc' || fail "cc --help mentions --soc"

# unknown SoC: precise error, status 2
if "$KGEN" cc --soc Ascend999 "$ROOT/examples/ascendc/add_double_buffer.cpp" -o "$TMP/x" 2>"$TMP/err"; then fail "bad soc accepted"; fi
grep -q "unknown SoC 'Ascend999'" "$TMP/err" || fail "bad soc message: $(cat "$TMP/err")"

# compile errors come from g++ with the file and line of the kernel
cat > "$TMP/bad.cpp" <<'K'
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
  AscendC::LocalTensor<float> t;
  AscendC::AddInvented(t, t, t, 8);
}
K
if "$KGEN" cc -c "$TMP/bad.cpp" -o "$TMP/bad.o" 2>"$TMP/err"; then fail "invented API compiled"; fi
grep -q "bad.cpp:4" "$TMP/err" || fail "invented API error lacks file:line"

# the SoC reaches the kernel: __NPU_ARCH__ and the UB size differ on 310P
cat > "$TMP/arch.cpp" <<'K'
#include <cstdio>
#include "kernel_operator.h"
int main() { std::printf("%d\n", __NPU_ARCH__); }
K
"$KGEN" cc --soc Ascend310P3 "$TMP/arch.cpp" -o "$TMP/arch" && [ "$("$TMP/arch")" = 2002 ] || fail "310P arch"
"$KGEN" cc "$TMP/arch.cpp" -o "$TMP/arch" && [ "$("$TMP/arch")" = 2201 ] || fail "910B arch"

# examples list finds the bundled examples
[ "$("$KGEN" examples list | wc -l)" -ge 1 ] || fail "examples list"
echo "cli tests: 1 passed, 0 failed"
