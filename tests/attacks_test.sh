#!/usr/bin/env bash
# The attack suite (docs/sandbox.md): every attack of tests/data/attacks/make_attacks.py, evaluated by `kgen bench`
# as a sample of its task, must get one of the verdicts it declares and never `correct`; afterwards nothing outside
# the sandbox may have changed (kgen's cache of libraries and reference data, the results store, a marker folder the
# attacks write to), no process an attack started may be left, the bench must have finished with valid results.json
# and report.html, and a second run must reuse everything. A few properties are checked on `kgen eval` alone.
# Usage: attacks_test.sh KGEN SOURCE_DIR
set -u
KGEN=$1
SRC=$2
PY=/usr/bin/python3
W=$(mktemp -d /tmp/kgen-attacks-test.XXXXXX)
trap 'rm -rf "$W"' EXIT
export KGEN_CACHE=$W/cache
fails=0
check() {  # check NAME COMMAND...
  local name=$1; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}

# A suite of three tasks, and kgen's state as an honest run leaves it: cached libraries, reference data, a store.
mkdir -p "$W/suite/activation" "$W/suite/math" "$W/marker" "$W/honest/activation"
cp "$SRC/tasks/activation/leaky_relu.py" "$W/suite/activation/"
cp "$SRC/tests/data/attacks/tiny_relu.py" "$W/suite/activation/"
cp "$SRC/examples/mkb/tasks/add.py" "$W/suite/math/add.py"
ln -s "$SRC/examples/op_projects/leaky_relu" "$W/honest/activation/leaky_relu"
"$KGEN" bench --suite "$W/suite" --candidates "$W/honest" --jobs 2 --trials 1 --out "$W/honest-out" > "$W/honest.txt" 2>&1
check "honest run: correct" grep -q "verdicts: correct 1," "$W/honest.txt"
STORE=$W/honest-out/results.db

# The memorising attack's table: the fixed-seed (42) trial 0 of tiny_relu, from kgen's own reference data.
"$PY" - "$SRC" "$W" "$STORE" <<'PY'
import json, subprocess, sys, os
import numpy as np
src, w, store = sys.argv[1:]
out = subprocess.run(["/usr/bin/python3", "-B", f"{src}/python/kgen_eval/reference.py", f"{w}/suite/activation/tiny_relu.py",
                      "--cache", f"{w}/memo-cache", "--seed", "42", "--trials", "1"], capture_output=True, text=True)
d = json.loads(out.stdout.strip().splitlines()[-1])["cases"][0]["trials"][0]
x, y = np.load(f"{d}/input_000.npy"), np.load(f"{d}/output_000.npy")
cfg = {"cache": os.environ["KGEN_CACHE"], "store": store, "marker": f"{w}/marker",
       "memo": {"x0": float(x.flat[0]), "y": [float(v) for v in y.flat]}}
json.dump(cfg, open(f"{w}/config.json", "w"))
PY
"$PY" "$SRC/tests/data/attacks/make_attacks.py" "$SRC" "$W/att" "$W/config.json" || { echo "FAIL make_attacks.py"; exit 1; }

# Each attack is a sample of its task: op projects of leaky_relu, the memorising one of tiny_relu, submissions of add.
C=$W/cands
mkdir -p "$C/activation/leaky_relu" "$C/activation/tiny_relu" "$C/math/add"
declare -A want sample_of
k_op=0; k_mkb=0
while IFS=$'\t' read -r name verdicts what; do
  if [[ "$name" == memorised ]]; then cp -r "$W/att/$name" "$C/activation/tiny_relu/0"; key="activation/tiny_relu#0"
  elif [[ "$name" == *.py ]]; then cp "$W/att/$name" "$C/math/add/$k_mkb.py"; key="math/add#$k_mkb"; k_mkb=$((k_mkb + 1))
  elif [[ "$name" == *.tile ]]; then cp "$W/att/$name" "$C/activation/leaky_relu/$k_op.tile"; key="activation/leaky_relu#$k_op"; k_op=$((k_op + 1))
  else cp -a "$W/att/$name" "$C/activation/leaky_relu/$k_op"; key="activation/leaky_relu#$k_op"; k_op=$((k_op + 1))
  fi
  want[$key]=$verdicts
  sample_of[$key]=$name
done < "$W/att/ATTACKS.txt"
echo "== ${#want[@]} attacks"

snapshot() { (find "$KGEN_CACHE/op" "$KGEN_CACHE/ref" -type f -print0 | sort -z | xargs -0 sha256sum; sha256sum "$STORE") 2>/dev/null; }
snapshot > "$W/before.txt"

t0=$(date +%s)
"$KGEN" bench --suite "$W/suite" --candidates "$C" --jobs 2 --trials 1 --timeout 30 --max-records 2000000 \
  --out "$W/out" > "$W/run1.txt" 2> "$W/run1.err"
rc=$?
t1=$(date +%s)
cat "$W/run1.txt"
check "the bench over every attack finishes (exit 0, $((t1 - t0)) s)" test "$rc" = 0
check "results.json is valid JSON" "$PY" -c "import json,sys; json.load(open(sys.argv[1]))" "$W/out/results.json"
check "report.html written" test -s "$W/out/report.html"

# Verdicts: each as declared, none correct.
"$PY" - "$W/out/results.json" > "$W/verdicts.txt" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"{r['task_id']}#{r.get('sample', 0)}\t{r['verdict']}\t{r.get('error_category', '')}\t"
          f"{(r.get('diagnostics') or [''])[0][:150]}")
PY
seen=0
while IFS=$'\t' read -r key verdict cat diag; do
  [ -n "${want[$key]:-}" ] || continue
  seen=$((seen + 1))
  if [ "$verdict" = correct ]; then
    echo "FAIL ${sample_of[$key]}: judged correct"; fails=$((fails + 1))
  elif [[ ",${want[$key]}," == *",$verdict,"* ]]; then
    echo "ok   ${sample_of[$key]}: $verdict${cat:+ [$cat]}: ${diag:0:110}"
  else
    echo "FAIL ${sample_of[$key]}: $verdict${cat:+ [$cat]}, want ${want[$key]}: $diag"; fails=$((fails + 1))
  fi
done < "$W/verdicts.txt"
check "every attack has a result ($seen of ${#want[@]})" test "$seen" = "${#want[@]}"
grep -q "raw-gm-access.*leaky_relu_custom.cpp:[0-9]" "$W/verdicts.txt" && ok_line=1 || ok_line=0
check "raw GM access names the kernel's source line" test "$ok_line" = 1
check "the memorised outputs fail on the secret trial" grep -qE "activation/tiny_relu#0.wrong-answer" "$W/verdicts.txt"

# Nothing outside the sandbox changed; nothing an attack started is running.
snapshot > "$W/after.txt"
check "cached libraries, reference data and the store are unchanged" \
  "$PY" -c "import sys; a=set(open(sys.argv[1]).read().splitlines()); b=set(open(sys.argv[2]).read().splitlines()); sys.exit(0 if a <= b else 1)" \
  "$W/before.txt" "$W/after.txt"
check "no file the attacks wrote" test ! -e "$KGEN_CACHE/op/poisoned.so" -a ! -e "$KGEN_CACHE/ref/x" -a -z "$(ls -A "$W/marker")"
check "no daemon left" test -z "$(pgrep -f kgen_attack_daemon)"
check "no compiler left" test -z "$(pgrep -f "$C/activation/leaky_relu/[0-9]*/op_kernel")"

# Resume: the second run evaluates nothing (every verdict was stored, none was fatal to the bench).
"$KGEN" bench --suite "$W/suite" --candidates "$C" --jobs 2 --trials 1 --timeout 30 --max-records 2000000 \
  --out "$W/out" > "$W/run2.txt" 2>&1
check "second run reuses every result" grep -q "evaluated 0, reused ${#want[@]}" "$W/run2.txt"

# kgen eval alone: bytes that are not UTF-8 still give valid JSON; the verdict is the exit status.
ne=$(grep -n "^not_utf8" "$W/att/ATTACKS.txt" >/dev/null && echo "$W/att/not_utf8")
"$KGEN" eval --task "$W/suite/activation/leaky_relu.py" --candidate "$ne" --trials 1 --json > "$W/ne.json" 2>/dev/null
rc=$?
check "kgen eval: non-UTF-8 output, exit 3" test "$rc" = 3
check "kgen eval: non-UTF-8 output, valid JSON" "$PY" -c "import json,sys; json.load(open(sys.argv[1]))" "$W/ne.json"
# The same attack without the sandbox shows what it stops: read_reference finds nothing either way (no file API
# in the library), but the memorised table passes the fixed-seed trials: only the secret trial catches it.
"$KGEN" eval --task "$W/suite/activation/tiny_relu.py" --candidate "$W/att/memorised" --trials 1 --secret-trials 0 \
  > "$W/memo0.txt" 2>&1
check "without secret trials the memorised table would pass" grep -q "^correct" "$W/memo0.txt"

echo "attacks_test: $fails failure(s)"
exit $((fails > 0))
