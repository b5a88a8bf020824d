#!/usr/bin/env bash
# `kgen bench`: a tiny candidates tree (symlinks to two example op projects, one broken copy as a second sample, one
# candidate for a task the suite lacks) on the bundled suite filtered to activation/: verdict counts, results.json
# schema, missing tasks, resume (second run re-evaluates nothing), --rerun, --json, --generator exec:PROGRAM. The
# benches run --no-perf-shape: the log_softmax example is right at every check shape and refused at the perf shape
# (tests/candidates_test.sh checks that), and this test is about the bench's bookkeeping.
set -u
KGEN=$1
SRC=$2
T=$(mktemp -d /tmp/kgen-bench-test-XXXXXX)
trap 'rm -rf "$T"' EXIT
export KGEN_CACHE=$T/cache
fails=0
check() {  # check NAME COMMAND...
  local name=$1; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}

C=$T/cands
mkdir -p "$C/activation/leaky_relu"
ln -s "$SRC/examples/op_projects/leaky_relu" "$C/activation/leaky_relu/0"
cp -r "$SRC/examples/op_projects/leaky_relu" "$C/activation/leaky_relu/1"
k=$(ls "$C/activation/leaky_relu/1/op_kernel/"*.cpp | head -1)
echo 'this is not C++;' >> "$k"                                   # sample 1: a compile error
ln -s "$SRC/examples/op_projects/log_softmax" "$C/activation/log_softmax"
ln -s "$SRC/examples/op_projects/softmax" "$C/activation/nosuchtask" # no such task: a note, skipped

OUT=$T/out
t0=$(date +%s)
"$KGEN" bench --no-perf-shape --suite "$SRC/tasks" --candidates "$C" --filter activation/ --jobs 2 --trials 2 --out "$OUT" \
  > "$T/run1.txt" 2> "$T/run1.err"
rc=$?
t1=$(date +%s)
cat "$T/run1.txt"
check "first run exits 0" test "$rc" = 0
check "first run evaluates 3" grep -q "evaluated 3, reused 0" "$T/run1.txt"
check "verdict counts" grep -q "verdicts: correct 2, wrong-answer 0, runtime-error 0, timeout 0, compile-error 1, cheating 0" "$T/run1.txt"
check "missing listed" grep -q "missing (no candidate.*activation/elu" "$T/run1.txt"
check "unknown task noted" grep -q "no task activation/nosuchtask" "$T/run1.err"
check "plain progress lines when not a terminal" grep -qE "^\[3/3\] " "$T/run1.err"
check "results.json written" test -s "$OUT/results.json"
check "results store written" test -s "$OUT/results.db"
python3 - "$OUT/results.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("kgen_version", "soc", "suite", "candidates", "created_at", "results", "metrics", "missing", "sources"):
    assert k in d, f"results.json lacks {k}"
rs = d["results"]
assert len(rs) == 3, len(rs)
by = {(r["task_id"], r["sample"]): r["verdict"] for r in rs}
assert by == {("activation/leaky_relu", 0): "correct", ("activation/leaky_relu", 1): "compile-error",
              ("activation/log_softmax", 0): "correct"}, by
for r in rs:
    for k in ("verdict", "diagnostics", "max_abs_err", "max_rel_err", "modeled_us", "eager_modeled_us", "speedup",
              "soc", "task_hash", "candidate_hash", "kgen_version"):
        assert k in r, f"result lacks {k}"
assert "activation/elu" in d["missing"] and "activation/leaky_relu" not in d["missing"], d["missing"]
assert len(d["missing"]) == 11, d["missing"]
s = d["sources"]["activation/leaky_relu"]
assert "class Model" in s["task"]
assert any(p.startswith("1/op_kernel/") for p in s["candidate"]), list(s["candidate"])
assert any(p.startswith("0/op_host/") for p in s["candidate"]), list(s["candidate"])
assert "op_host/log_softmax_custom.cpp" in d["sources"]["activation/log_softmax"]["candidate"]
m = d["metrics"]
assert m["overall"]["tasks"] == 2, m["overall"]
print("ok   results.json schema")
PY
[ $? = 0 ] || fails=$((fails + 1))
check "report.html written" test -s "$OUT/report.html"
# The report as a reader sees it, in headless Chromium: no console error, the charts drawn with their legends, the
# verdict filter of the task table working (tests/browser_check.py).
if /usr/bin/python3 "$SRC/tests/browser_check.py" "$OUT/report.html" --svg-title "roofline (modeled)" \
     --svg-title "modeled timeline of" --svg-title "modeled kernel time vs modeled eager time" --svg-title "cores of" \
     --filter tasktable verdict correct 2 --filter tasktable verdict compile-error 1 --filter tasktable category activation 3 \
     --screenshot "$T/report.png"; then :; else fails=$((fails + 1)); fi

# --profile DIR: each evaluated launch's report, lanes and Perfetto timeline under DIR/<category>/<task>/s<sample>/,
# evaluated again though the store holds the result.
"$KGEN" bench --no-perf-shape --suite "$SRC/tasks" --candidates "$C" --filter activation/log --trials 1 --out "$T/prof-out" \
  --profile "$T/prof" > "$T/prof.txt" 2>&1
check "bench --profile: exit 0 and says where" bash -c "test $? = 0 && grep -q 'profile: .* file(s) under $T/prof/' '$T/prof.txt'"
check "bench --profile: a Perfetto timeline per case under category/task/sample" bash -c \
  "ls '$T/prof/activation/log_softmax/s0/' | grep -c 'timeline.json' | grep -qx 3"

# Resume: nothing changed, nothing re-evaluated.
t2=$(date +%s)
"$KGEN" bench --no-perf-shape --suite "$SRC/tasks" --candidates "$C" --filter activation/ --jobs 2 --trials 2 --out "$OUT" \
  > "$T/run2.txt" 2>&1
t3=$(date +%s)
check "second run re-evaluates nothing" grep -q "evaluated 0, reused 3" "$T/run2.txt"
check "second run fast ($((t3 - t2)) s vs $((t1 - t0)) s)" test $((t3 - t2)) -le 5
check "second run same verdicts" grep -q "verdicts: correct 2, wrong-answer 0, runtime-error 0, timeout 0, compile-error 1" "$T/run2.txt"

# A changed candidate is re-evaluated alone.
sed -i '$d' "$k"                                                   # fix sample 1
"$KGEN" bench --no-perf-shape --suite "$SRC/tasks" --candidates "$C" --filter activation/ --jobs 2 --trials 2 --out "$OUT" \
  > "$T/run3.txt" 2>&1
check "changed candidate re-evaluated alone" grep -q "evaluated 1, reused 2" "$T/run3.txt"
check "fixed sample correct" grep -q "verdicts: correct 3," "$T/run3.txt"

# Other settings that can change a verdict (trials, tolerances) are a new evaluation, not a reuse.
"$KGEN" bench --no-perf-shape --suite "$SRC/tasks" --candidates "$C" --filter activation/log --jobs 2 --trials 1 --out "$OUT" \
  > "$T/run3b.txt" 2>&1
check "other --trials: evaluated again" grep -q "evaluated 1, reused 0" "$T/run3b.txt"
"$KGEN" bench --no-perf-shape --suite "$SRC/tasks" --candidates "$C" --filter activation/log --jobs 2 --trials 1 --out "$OUT" \
  > "$T/run3c.txt" 2>&1
check "the same --trials again: reused" grep -q "evaluated 0, reused 1" "$T/run3c.txt"

# --rerun re-evaluates everything; --json summary.
"$KGEN" bench --no-perf-shape --suite "$SRC/tasks" --candidates "$C" --filter activation/ --jobs 2 --trials 2 --out "$OUT" --rerun \
  --json > "$T/run4.json" 2> "$T/run4.err"
python3 - "$T/run4.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["evaluated"] == 3 and j["reused"] == 0, j
assert j["verdicts"]["correct"] == 3, j["verdicts"]
assert len(j["missing"]) == 11
print("ok   --rerun re-evaluates everything (--json)")
PY
[ $? = 0 ] || fails=$((fails + 1))

# Errors are precise.
"$KGEN" bench --no-perf-shape --suite "$SRC/tasks" --candidates "$T/nope" --out "$OUT" > "$T/err.txt" 2>&1
rc=$?
check "missing candidates folder: exit 1" test "$rc" = 1
check "missing candidates folder: message" grep -q "candidates $T/nope is not a folder" "$T/err.txt"
touch "$C/activation/leaky_relu.py"
"$KGEN" bench --no-perf-shape --suite "$SRC/tasks" --candidates "$C" --filter activation/ --out "$OUT" > "$T/dup.txt" 2>&1
check "two candidates for one sample: error" grep -q "are both sample 0 of task activation/leaky_relu" "$T/dup.txt"

# --generator exec:PROGRAM: candidates written by a program into OUT/generated, failures as compile errors,
# generation reused on a second run (the stamp), candidates re-evaluated from the store.
cat > "$T/gen.sh" <<'GEN'
#!/usr/bin/env bash
# gen.sh TASK.py DIR SAMPLE: leaky_relu 0 = the example op project, leaky_relu 1 = fails, log_softmax 0 = writes
# nothing, log_softmax 1 = the example op project. Each call is counted in $COUNT.
echo "$KGEN_TASK_ID $3" >> "$COUNT"
case "$KGEN_TASK_ID:$3" in
  activation/leaky_relu:0) cp -r "$EX/leaky_relu/." "$2/" ;;
  activation/leaky_relu:1) echo "model refused: quota exceeded" >&2; exit 4 ;;
  activation/log_softmax:0) ;;
  activation/log_softmax:1) cp -r "$EX/log_softmax/." "$2/" ;;
esac
GEN
chmod +x "$T/gen.sh"
export COUNT=$T/count EX=$SRC/examples/op_projects
G=$T/gen-out
"$KGEN" bench --no-perf-shape --suite "$SRC/tasks" --generator "exec:$T/gen.sh" --samples 2 --filter activation/l --jobs 2 \
  --trials 2 --out "$G" > "$T/gen1.txt" 2> "$T/gen1.err"
rc=$?
cat "$T/gen1.txt"
check "generator run exits 0" test "$rc" = 0
check "generator: 4 generations" test "$(wc -l < "$COUNT")" = 4
check "generator: verdicts" grep -q "verdicts: correct 2, wrong-answer 0, runtime-error 0, timeout 0, compile-error 2" "$T/gen1.txt"
check "generator: failure diagnostics" grep -q "compile-error activation/leaky_relu #1: model refused: quota exceeded" "$T/gen1.txt"
check "generator: wrote nothing" grep -q "wrote nothing into .*for activation/log_softmax sample 0" "$G/results.json"
check "generator: candidates in OUT/generated" test -f "$G/generated/activation/leaky_relu/0/op_host/leaky_relu_custom.cpp"
check "generator: pass@1 over 2 samples" grep -qE "^overall +2 +.* 50.0%" "$T/gen1.txt"
"$KGEN" bench --no-perf-shape --suite "$SRC/tasks" --generator "exec:$T/gen.sh" --samples 2 --filter activation/l --jobs 2 \
  --trials 2 --out "$G" > "$T/gen2.txt" 2>&1
check "generator: second run regenerates only the failures" test "$(wc -l < "$COUNT")" = 6
check "generator: second run re-evaluates nothing" grep -q "evaluated 0, reused 2" "$T/gen2.txt"
"$KGEN" bench --no-perf-shape --suite "$SRC/tasks" --generator "nosuch" --out "$G" > "$T/gen3.txt" 2>&1
check "unknown generator: precise error" grep -q "unknown generator 'nosuch' — known: expert" "$T/gen3.txt"
"$KGEN" bench --no-perf-shape --suite "$SRC/tasks" --generator "exec:x" --candidates "$C" --out "$G" > "$T/gen4.txt" 2>&1
check "--generator excludes --candidates" grep -q "excludes" "$T/gen4.txt"
check "generator: @1 and @2 metrics for 2 samples per task" grep -qE "^ +tasks +compile@1 +pass@1 +fast_1@1 +compile@2 +pass@2" "$T/gen1.txt"
# A generator that cannot work stops the bench (exit 1) instead of scoring every task a compile error.
"$KGEN" bench --no-perf-shape --suite "$SRC/tasks" --generator "exec:/usr/bin/python3 $T/no_such_gen.py" --filter activation/ \
  --jobs 1 --out "$T/gen5" > "$T/gen5.txt" 2>&1
rc=$?
check "missing generator program: exit 1" test "$rc" = 1
check "missing generator program: stopped after 3 identical failures, with the message" \
  grep -q "failed the same way on its first 3 generations; stopped" "$T/gen5.txt"
check "missing generator program: python's own message shown" grep -q "no_such_gen.py" "$T/gen5.txt"
t0=$(date +%s)
"$KGEN" bench --no-perf-shape --suite "$SRC/tasks" --generator llm:m --base-url http://127.0.0.1:9/v1 --filter activation/ \
  --out "$T/gen6" > "$T/gen6.txt" 2>&1
rc=$?
check "unreachable model endpoint: exit 1 at once ($(( $(date +%s) - t0 )) s)" test "$rc" = 1 -a $(( $(date +%s) - t0 )) -lt 20
check "unreachable model endpoint: said" grep -q "the generator llm:m cannot reach its model" "$T/gen6.txt"
check "unreachable model endpoint: named" grep -q "connection refused to 127.0.0.1:9" "$T/gen6.txt"
# --generator auto (make run's): kgen.toml's default model when one is configured, else the expert library.
mkdir -p "$T/home" "$T/cfg"
(cd "$T" && HOME=$T/home KGEN_CONFIG= "$KGEN" bench --no-perf-shape --suite "$SRC/tasks" --generator auto --filter activation/relu \
  --trials 1 --out "$T/auto1" > "$T/auto1.txt" 2>&1)
check "--generator auto without a model: the expert library" grep -q "generator auto is expert (no default model" "$T/auto1.txt"
check "--generator auto without a model: its program evaluated" grep -q "verdicts: correct 1," "$T/auto1.txt"
printf 'default = "m"\n[model.m]\nbase_url = "http://127.0.0.1:9/v1"\n' > "$T/cfg/kgen.toml"
(cd "$T/cfg" && HOME=$T/home KGEN_CONFIG= "$KGEN" bench --no-perf-shape --suite "$SRC/tasks" --generator auto --filter activation/relu \
  --out "$T/auto2" > "$T/auto2.txt" 2>&1)
check "--generator auto with a default model: the LLM" grep -q "generator auto is llm:m (the default model of" "$T/auto2.txt"

# results.csv beside results.json; kgen compare of two runs: B = A with leaky_relu broken and log_softmax twice as fast.
check "results.csv: a header and one row per result" test "$(wc -l < "$OUT/results.csv")" = 4
check "results.csv: the columns" grep -q "^task_id,sample,level,category,candidate_kind,verdict,error_category,correct,tol_err" "$OUT/results.csv"
python3 - "$OUT/results.json" "$T/runB.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    if r["task_id"] == "activation/leaky_relu": r["verdict"] = "wrong-answer"; r["speedup"] = 0
    else: r["speedup"] *= 2
json.dump(d, open(sys.argv[2], "w"))
PY
"$KGEN" compare "$OUT" "$T/runB.json" --csv "$T/deltas.csv" > "$T/cmp.txt" 2>&1
rc=$?
cat "$T/cmp.txt"
check "compare: exit 0" test "$rc" = 0
check "compare: counts" grep -q "2 task(s) in both: 0 fixed, 1 broken, 1 faster, 0 slower" "$T/cmp.txt"
check "compare: pass@1 100 -> 50" grep -qE "^pass@1 +100.0% +50.0% +-50.0%" "$T/cmp.txt"
check "compare: the broken task named" grep -qE "^activation/leaky_relu +correct +wrong-answer .* broken" "$T/cmp.txt"
check "compare: csv rows" grep -q "^activation/log_softmax,correct,correct,.*,faster" "$T/deltas.csv"
"$KGEN" compare "$OUT" "$T/runB.json" --html "$T/cmp.html" > /dev/null 2>&1
check "compare --html: the page written" test -s "$T/cmp.html"
if /usr/bin/python3 "$SRC/tests/browser_check.py" "$T/cmp.html" --svg-title "modeled speedup, A against B" \
     --filter cmptable change broken 1 --filter cmptable change faster 1 --filter cmptable b wrong-answer 1 \
     --text "pass@1" --screenshot "$T/cmp.png"; then :; else fails=$((fails + 1)); fi
"$KGEN" compare "$OUT" "$T/nope.json" > "$T/cmp2.txt" 2>&1
rc=$?
check "compare: a missing run is exit 2, named" bash -c "test $rc = 2 && grep -q 'nope.json: cannot read it' '$T/cmp2.txt'"

# The reference prefetch `kgen bench` runs first: the same data as one reference.py run per task, byte for byte; a
# failing task is counted (its error comes when it is evaluated), the others are still written.
REF=$SRC/python/kgen_eval/reference.py
mkdir -p "$T/badtask"
cat > "$T/badtask/bad.py" <<'PY'
import torch
LEVEL = 1
class Model(torch.nn.Module):
    def forward(self, x):
        return x.nosuch()          # AttributeError in the reference
def get_inputs():
    return [torch.ones(4)]
def get_init_inputs():
    return []
PY
/usr/bin/python3 -B "$REF" --prefetch "$SRC/tasks/activation/relu.py" "$T/badtask/bad.py" "$SRC/tasks/loss/mse_loss.py" \
  --cache "$T/pf" --trials 2 --version v --jobs 2 > "$T/pf.txt" 2>&1
check "prefetch: 2 of 3 written, 1 failed" grep -q "prefetched 2 of 3 tasks (1 failed)" "$T/pf.txt"
for t in activation/relu loss/mse_loss; do
  /usr/bin/python3 -B "$REF" "$SRC/tasks/$t.py" --cache "$T/one" --trials 2 --version v > /dev/null
done
check "prefetch: byte-identical to one run per task" diff -r "$T/pf/ref" "$T/one/ref"
/usr/bin/python3 -B "$REF" --prefetch "$SRC/tasks/activation/relu.py" --cache "$T/pf" --trials 2 --version v \
  > "$T/pf2.txt" 2>&1
check "prefetch: nothing to do when cached" grep -q "prefetched 0 of 1 tasks (0 failed)" "$T/pf2.txt"

echo "bench test: $fails failure(s)"
exit $((fails > 0))
