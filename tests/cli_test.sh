#!/usr/bin/env bash
# End-to-end checks of the kgen command line: help on every subcommand, version, cc's errors and SoC flag.
set -euo pipefail
KGEN=$(realpath "$1"); ROOT=$(realpath "$2")
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

# --version, and a "did you mean" for a misspelt command or option (exit 2)
"$KGEN" --version | grep -Eq '^kgen [0-9]+\.[0-9]+\.[0-9]+$' || fail "--version"
hint() {   # hint WANT ARGS...: exit 2 and WANT in the message
  local want=$1; shift
  local rc=0; "$KGEN" "$@" >"$TMP/out" 2>&1 || rc=$?
  [ "$rc" = 2 ] || fail "kgen $*: exit $rc, want 2: $(cat "$TMP/out")"
  grep -qF -- "$want" "$TMP/out" || fail "kgen $*: no '$want' in: $(cat "$TMP/out")"
}
hint "unknown command 'evl' — did you mean 'eval'?" evl --task x
hint "kgen op: unknown command 'rn' — did you mean 'run'?" op rn x
hint "kgen eval: unknown option '--tsk' — did you mean '--task'?" eval --tsk x --candidate y
hint "unknown option '--candidat' — did you mean '--candidate'?" eval --task=x --candidat y
hint "kgen bench: unknown option '--filtr' — did you mean '--filter'?" bench --filtr x
hint "unknown option '--zzzzzzzz' (kgen tasks list --help lists the options)" tasks list --zzzzzzzz
# a task id of the suite where a task file is expected; a wrong one says where it looked
hint "neither a task file nor the id of a task of the suite" eval --task activation/no_such_task --candidate "$ROOT/examples/op_projects/leaky_relu"
# a --filter that matches no task is an error, not an empty table; the default suite is the source tree's, wherever kgen runs
(cd "$TMP" && rc=0 && "$KGEN" tasks list --filter no_such_task_anywhere >"$TMP/out" 2>&1 || rc=$?; [ "$rc" = 1 ]) || fail "tasks list --filter nothing: $(cat "$TMP/out")"
grep -q "matches --filter 'no_such_task_anywhere'" "$TMP/out" || fail "tasks list --filter message: $(cat "$TMP/out")"
(cd "$TMP" && rc=0 && "$KGEN" bench --filter no_such_task_anywhere --out "$TMP/b" >"$TMP/out" 2>&1 || rc=$?; [ "$rc" = 1 ]) || fail "bench --filter nothing: $(cat "$TMP/out")"
grep -q "no task of the suite $ROOT/tasks matches --filter 'no_such_task_anywhere'" "$TMP/out" || fail "bench --filter message: $(cat "$TMP/out")"
mkdir -p "$TMP/empty"
(rc=0; "$KGEN" tasks list --suite "$TMP/empty" >"$TMP/out" 2>&1 || rc=$?; [ "$rc" = 1 ]) || fail "tasks list on an empty suite: $(cat "$TMP/out")"
grep -q "no task in $TMP/empty" "$TMP/out" || fail "empty suite message: $(cat "$TMP/out")"

# examples list finds the bundled examples
[ "$("$KGEN" examples list | wc -l)" -ge 1 ] || fail "examples list"
echo "cli tests: 1 passed, 0 failed"
