#!/usr/bin/env bash
# The README's tour as a newcomer runs it: every command of its ```sh blocks, exactly as written (continuation lines
# joined, trailing comments dropped), from the checkout's root with a fresh HOME and KGEN_CACHE, one after the other.
# The one change: the README's /tmp/ paths go to a fresh folder of this run (a newcomer's /tmp is empty, and tests
# running side by side must not share files).
# A command passes when it exits 0 and, where the README shows its output on the next comment line ("# NAME: ..."),
# prints that line. Commands that cannot run here are skipped with the reason, by a pattern below; every other
# command runs, so a command added to the README is tested as soon as it lands.
set -u
KGEN=$1   # unused: the README says build/kgen, and that is what runs (the build tree of this checkout)
SRC=$2
cd "$SRC" || exit 1
T=$(mktemp -d /tmp/kgen-readme-tour-XXXXXX)
trap 'rm -rf "$T"; [ -n "${SERVE_PID:-}" ] && kill "$SERVE_PID" 2>/dev/null' EXIT
export HOME=$T/home KGEN_CACHE=$T/cache KGEN_CONFIG=
mkdir -p "$HOME" "$T/tmp"

# Pattern (bash regex on the command) -> why it is not run here.
SKIP_PATTERNS=(
  '^make (run|test)'                       "make run and make test are CI's own command and the nightly run"
  '--generator expert'                     "the whole expert library: ~8 min, tests/tile_expert_test.sh runs it"
  '^build/kgen bench --candidates candidates' "every hand-written candidate: ~4 min, tests/candidates_test.sh runs it"
  'my_gen\.py'                             "a generator program of the reader's own"
  '--model |llm:qwen'                      "needs an LLM endpoint: tests/generate_test.sh runs both against a scripted one"
  '~/KernelBench|~/NPUKernelBench|~/MultiKernelBench' "needs a checkout of another benchmark (scripts/*_check.sh)"
  '^build/kgen compare build/bench-out'    "compares two whole-suite runs; tests/bench_test.sh runs compare --html"
  'F\.tile'                                "F.tile stands for the reader's program"
  '^build/kgen tasks check$'               "45 s over the whole suite: tests/tasks_test.sh runs it"
  '^build/kgen examples run'               "every example: the examples test runs it"
  '^curl |^build/kgen serve '              "a server on port 8000: tests/serve_test.sh runs both on a free port"
  '^pip install'                           "tests/serve_test.sh installs the package into a venv"
  'tcp://HOST:8786|^dask-'                 "a Dask cluster and a PostgreSQL server of the reader's: tests/scale_out_test.sh starts both on loopback"
  '^build/kgen eval .*softmax\.tile$'        "50 s timing softmax at 4096 x 393216: tests/tile_expert_test.sh evaluates this program"
)

# The commands: lines of ```sh blocks, "\" continuations joined, with the comment line after each (its output).
mapfile -t CMDS < <(/usr/bin/python3 - README.md <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
out, inside, cur = [], False, ""
for i, l in enumerate(lines):
    if l.startswith("```"):
        inside = l.strip() == "```sh" and not inside
        continue
    if not inside:
        continue
    if cur:
        l = cur + " " + l.strip()
        cur = ""
    code = l.split("   #")[0].split("  #")[0].rstrip() if not l.lstrip().startswith("#") else ""
    if code.endswith("\\"):
        cur = code[:-1].rstrip()
        continue
    if not code.strip():
        continue
    want = ""
    if i + 1 < len(lines) and re.match(r"^# [\w./-]+: ", lines[i + 1]) and "..." not in lines[i + 1]:
        want = lines[i + 1][2:]
    print(code.strip() + "\t" + want)
PY
)

pass=0 fail=0 skipped=0
for entry in "${CMDS[@]}"; do
  cmd=${entry%%$'\t'*}
  want=${entry#*$'\t'}
  why=""
  for ((k = 0; k < ${#SKIP_PATTERNS[@]}; k += 2)); do
    if [[ $cmd =~ ${SKIP_PATTERNS[k]} ]]; then why=${SKIP_PATTERNS[k + 1]}; break; fi
  done
  if [ -n "$why" ]; then
    echo "skip $cmd  ($why)"
    skipped=$((skipped + 1))
    continue
  fi
  t0=$(date +%s)
  out=$(timeout 300 bash -c "${cmd//\/tmp\//$T/tmp/}" 2>&1)
  rc=$?
  t1=$(date +%s)
  if [ $rc -ne 0 ]; then
    echo "FAIL $cmd  (exit $rc)"; echo "$out" | tail -8 | sed 's/^/     /'
    fail=$((fail + 1))
  elif [ -n "$want" ] && ! grep -qF -- "$want" <<<"$out"; then
    echo "FAIL $cmd  (the README shows '$want'; got:)"; echo "$out" | tail -5 | sed 's/^/     /'
    fail=$((fail + 1))
  else
    echo "ok   $cmd  [$((t1 - t0)) s]"
    pass=$((pass + 1))
  fi
done
[ $((pass + skipped)) -ge 20 ] || { echo "FAIL only $((pass + skipped)) commands found in README.md"; fail=$((fail + 1)); }
echo "readme tour: $pass passed, $fail failed, $skipped skipped (reasons above)"
[ $fail -eq 0 ]
