#!/usr/bin/env bash
# LLM generation end to end (docs/generation.md) against kgen-fake-llm, a scripted OpenAI-compatible server on
# loopback: a kernel that fails to compile and is repaired in round 2 (the repair prompt carries the diagnostic and
# the offending line); the rerun served from the reply cache (no request reaches the server, the verdicts are the
# same); a reply with no code, then a good one; a wrong answer fixed after the mismatch is fed back; 429 then success
# (Retry-After honoured, settings from a kgen.toml); a timeout and a malformed JSON body (no reply: exit 1, precise
# errors); no model configured (exit 2, says how); the trajectories in the store; and `kgen bench --generator
# llm:MODEL` (compile@k/pass@k metrics, the attempts in results.json, the bench reusing the loop's evaluation).
set -u
KGEN=$1
SRC=$2
PY=/usr/bin/python3
FAKE=$(dirname "$KGEN")/kgen-fake-llm

T=$(mktemp -d /tmp/kgen-generate-test-XXXXXX)
SERVER_PID=
cleanup() { [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
[ -n "${KEEP:-}" ] && trap - EXIT
export KGEN_CACHE=$T/cache
unset KGEN_CONFIG KGEN_BASE_URL OPENAI_API_KEY
fails=0
check() {  # check NAME COMMAND...
  local name=$1; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
py_check() {  # py_check NAME ARGS... <<'PY'
  local name=$1; shift
  if "$PY" - "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
cd "$T" || exit 1

# The replies: a good relu program, one that does not compile (a misspelt function), one that is wrong by one.
good=$(cat "$SRC/kernels/activation/relu.tile")
broken=$(printf '%s' "$good" | sed 's/relu(load/relux(load/')
wrong=$(printf '%s' "$good" | sed 's/relu(load(x\[t\], f32))/relu(load(x[t], f32)) + 1.0/')
[ "$broken" != "$good" ] && [ "$wrong" != "$good" ] || { echo "FAIL the test's variants of relu.tile"; exit 1; }
# start_server SCRIPT_JSON: (re)starts the fake server with a script; sets PORT, LOG.
start_server() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  printf '%s' "$1" > script.json
  LOG=$T/requests-$RANDOM.jsonl
  rm -f port
  "$FAKE" --script script.json --log "$LOG" --port-file port --idle-exit 300 &
  SERVER_PID=$!
  for _ in $(seq 50); do [ -s port ] && break; sleep 0.1; done
  PORT=$(cat port)
}
script() {  # script REPLY... : a JSON array of steps with these contents (as markdown replies with a tile block)
  "$PY" -c '
import json, sys
steps = []
for a in sys.argv[1:]:
    if a.startswith("{"): steps.append(json.loads(a))
    else: steps.append({"content": "Here is the kernel.\n\n```tile\n" + a + "\n```\n"})
print(json.dumps(steps))' "$@"
}
requests() { [ -f "$LOG" ] && wc -l < "$LOG" || echo 0; }
# The repair loop is what these runs test: candidates are judged at the check shapes (--no-perf-shape), not timed
# again at relu's 6.4 GB perf shape; the `kgen bench --generator llm:` runs below keep the default.
GEN=("$KGEN" generate --task activation/relu --model fake-model --trials 1 --no-perf-shape)

# ---- compile error repaired in round 2 ----
start_server "$(script "$broken" "$good")"
"${GEN[@]}" --base-url "http://127.0.0.1:$PORT/v1" --out out1 > gen1.out 2> gen1.err
rc=$?
check "repair: exit 0 (a correct candidate)" test "$rc" = 0
check "repair: round 0 compile-error" grep -q "sample 0 round 0: compile-error" gen1.err
check "repair: round 1 correct" grep -q "sample 0 round 1: correct" gen1.err
check "repair: two requests" test "$(requests)" = 2
py_check "repair: the second prompt carries the diagnostic, the offending line and the previous code" "$LOG" <<'PY'
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
first, second = reqs[0]["body"], reqs[1]["body"]
assert first["model"] == "fake-model", first["model"]
last = second["messages"][-1]["content"]
assert "relux" in last, last[:2000]                      # the offending call, quoted from the candidate
assert "compile" in last.lower(), last[:2000]
assert any(m["role"] == "assistant" and "relux" in m["content"] for m in second["messages"]), "previous reply missing"
assert "{{" not in json.dumps(second), "an unfilled template placeholder"
sys_msg = first["messages"][0]
assert sys_msg["role"] == "system"
user = first["messages"][1]["content"]
assert "class Model" in user and "torch.relu" in user or "relu" in user, user[:500]
PY
check "repair: best candidate written" test -f out1/activation/relu/relu.tile
check "repair: summary names the best round" grep -q "best: sample 0 round 1: correct" gen1.out
py_check "repair: trajectories stored (prompt, response, verdict per round)" out1/results.db <<'PY'
import sqlite3, sys, json
db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT round, kind, text FROM trajectories WHERE task_id='activation/relu' ORDER BY id").fetchall()
kinds = [(r, k) for r, k, _ in rows]
assert kinds == [(0, "prompt"), (0, "response"), (0, "verdict"), (1, "prompt"), (1, "response"), (1, "verdict")], kinds
v0 = json.loads(rows[2][2]); v1 = json.loads(rows[5][2])
assert v0["verdict"] == "compile-error" and "relux" in v0["feedback"], v0
assert v1["verdict"] == "correct" and v1["speedup"] > 0, v1
assert db.execute("SELECT count(*) FROM results").fetchone()[0] == 2
PY

# ---- the rerun: every reply from the cache, nothing sent ----
before=$(requests)
"${GEN[@]}" --base-url "http://127.0.0.1:$PORT/v1" --out out1b > gen1b.out 2> gen1b.err
rc=$?
check "cache: rerun exit 0" test "$rc" = 0
check "cache: no request reached the server" test "$(requests)" = "$before"
check "cache: replies marked cached" grep -q "round 1: correct.*\[cached reply\]" gen1b.err
check "cache: usage counts 2 cached replies, 0 sent" grep -q "model: 2 replies (2 from the cache), 0 requests sent" gen1b.out

# ---- a reply with no code, then a good kernel (no cache) ----
start_server "$(script '{"content": "I am sorry, I cannot write that kernel."}' "$good")"
"${GEN[@]}" --base-url "http://127.0.0.1:$PORT/v1" --out out2 --no-cache > gen2.out 2> gen2.err
rc=$?
check "no-code: exit 0 after the repair" test "$rc" = 0
check "no-code: round 0 verdict no-code" grep -q "sample 0 round 0: no-code" gen2.err
py_check "no-code: the repair prompt restates the required format" "$LOG" <<'PY'
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
assert len(reqs) == 2, len(reqs)
last = reqs[1]["body"]["messages"][-1]["content"]
assert "```" in last or "fenced" in last.lower(), last[:1500]
PY

# ---- a wrong answer fixed after the mismatch is fed back ----
start_server "$(script "$wrong" "$good")"
"${GEN[@]}" --base-url "http://127.0.0.1:$PORT/v1" --out out3 --no-cache > gen3.out 2> gen3.err
rc=$?
check "wrong: exit 0 after the repair" test "$rc" = 0
check "wrong: round 0 wrong-answer" grep -q "sample 0 round 0: wrong-answer" gen3.err
py_check "wrong: the repair prompt has the mismatch (index, got, want)" "$LOG" <<'PY'
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
last = reqs[1]["body"]["messages"][-1]["content"]
assert "got" in last and "want" in last, last[:1500]
PY

# ---- best of k: two samples, one round each (sample 0 does not compile, sample 1 is correct) ----
start_server "$(script "$broken" "$good")"
"${GEN[@]}" --base-url "http://127.0.0.1:$PORT/v1" --out out3k --no-cache --samples 2 --rounds 1 --jobs 1 --json \
  > gen3k.json 2> gen3k.err
rc=$?
check "best-of-k: exit 0" test "$rc" = 0
py_check "best-of-k: sample 1 is the best; pass@1 0.5, pass@2 1, compile@1 0.5" gen3k.json <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["best_sample"] == 1, j["best_sample"]
assert [s["verdict"] for s in j["samples"]] == ["compile-error", "correct"], j["samples"]
o = j["metrics"]["overall"]
assert o["pass@1"] == 0.5 and o["pass@2"] == 1 and o["compile@1"] == 0.5, o
assert j["usage"]["replies"] == 2 and j["usage"]["requests"] == 2, j["usage"]
PY

# ---- --target ascendc: the op project's three files as fenced blocks with their paths ----
reply=$("$PY" -c '
import pathlib, sys
d = pathlib.Path(sys.argv[1])
parts = ["The op project:"]
for rel in ["op_host/relu_custom_tiling.h", "op_host/relu_custom.cpp", "op_kernel/relu_custom.cpp"]:
    parts.append("```cpp " + rel + "\n" + (d / rel).read_text() + "```")
print("\n\n".join(parts))' "$SRC/candidates/activation/relu")
start_server "$("$PY" -c 'import json, sys; print(json.dumps([{"content": sys.argv[1]}]))' "$reply")"
"${GEN[@]}" --base-url "http://127.0.0.1:$PORT/v1" --out outa --no-cache --target ascendc > gena.out 2> gena.err
rc=$?
check "ascendc: exit 0 (the op project is correct)" test "$rc" = 0
check "ascendc: the best candidate is an op project" test -f outa/activation/relu/op_kernel/relu_custom.cpp
py_check "ascendc: the prompt teaches AscendC with op-project examples, not the task's own" "$LOG" <<'PY'
import json, sys
body = json.loads(open(sys.argv[1]).readline())["body"]
text = "\n".join(m["content"] for m in body["messages"])
assert "TilingFunc" in text and "op_kernel/" in text, text[:800]
assert "activation/relu" not in [l.split("Example: ")[-1].strip() for l in text.splitlines() if "Example: " in l]
PY

# ---- 429 then success, settings from kgen.toml ----
cat > kgen.toml <<TOML
# a test endpoint
default = "fake"
[model.fake]
base_url = "http://127.0.0.1:PORT/v1"
model = "fake-served"
retries = 3
backoff_s = 0.05
TOML
start_server "$(script '{"status": 429, "retry_after": "0"}' "$good")"
sed -i "s/PORT/$PORT/" kgen.toml
"$KGEN" generate --task activation/relu --trials 1 --out out4 --no-cache --no-perf-shape > gen4.out 2> gen4.err
rc=$?
check "429: exit 0 (retried)" test "$rc" = 0
check "429: the server saw 2 requests" test "$(requests)" = 2
check "429: one retry counted" grep -q "2 requests sent (1 retry, 0 failed)" gen4.out
py_check "429: kgen.toml's served model name sent" "$LOG" <<'PY'
import json, sys
assert all(json.loads(l)["body"]["model"] == "fake-served" for l in open(sys.argv[1]))
PY

# ---- a timeout, a malformed body: no reply, exit 1 with the reason ----
start_server "$(script '{"delay_s": 3, "content": "late", "times": -1}')"
"${GEN[@]}" --base-url "http://127.0.0.1:$PORT/v1" --out out5 --no-cache --request-timeout 0.5 --retries 1 \
  > gen5.out 2> gen5.err
rc=$?
check "timeout: exit 1" test "$rc" = 1
check "timeout: says it timed out" grep -qi "timed out" gen5.err
start_server "$(script '{"raw": "{\"choices\": [ not json", "times": -1}')"
"${GEN[@]}" --base-url "http://127.0.0.1:$PORT/v1" --out out6 --no-cache > gen6.out 2> gen6.err
rc=$?
check "malformed: exit 1" test "$rc" = 1
check "malformed: says the JSON is malformed" grep -qi "malformed JSON" gen6.err
check "malformed: not retried (one request)" test "$(requests)" = 1

# ---- no model configured ----
mkdir -p empty && (cd empty && HOME=$T/empty "$KGEN" generate --task activation/relu > ../gen7.out 2> ../gen7.err)
rc=$?
check "no model: exit 2" test "$rc" = 2
check "no model: explains kgen.toml and --base-url" bash -c "grep -q kgen.toml gen7.err && grep -q -- --base-url gen7.err"

# ---- kgen bench --generator llm:MODEL ----
start_server "$(script "$broken" "$good")"
"$KGEN" bench --suite "$SRC/tasks" --generator llm:fake-model --base-url "http://127.0.0.1:$PORT/v1" --no-cache --filter activation/relu \
  --trials 1 --jobs 1 --out bench --json > bench.json 2> bench.err
rc=$?
check "bench llm: exit 0" test "$rc" = 0
check "bench llm: a progress line per round (compile error, then correct)" bash -c \
  "grep -qE '^  activation/relu sample 0 round 0: compile-error' bench.err && grep -qE '^  activation/relu sample 0 round 1: correct, [0-9.]+x \(modeled, Ascend910B2\)' bench.err"
py_check "bench llm: pass@1 1, compile@1 1, attempts in results.json, the loop's evaluation reused" bench.json bench/results.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); doc = json.load(open(sys.argv[2]))
assert s["reused"] == 1 and s["evaluated"] == 0, (s["reused"], s["evaluated"])
o = doc["metrics"]["overall"]
assert o["pass@1"] == 1 and o["compile@1"] == 1, o
att = doc["attempts"]["activation/relu"]
assert [a["verdict"] for a in att] == ["compile-error", "correct"], att
assert doc["generator"] == "llm:fake-model"
PY
check "bench llm: report shows the attempts" grep -q "Generation attempts" bench/report.html
py_check "bench llm: metrics by repair round (round 0 compile error, after round 1 correct)" bench.json bench/results.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); doc = json.load(open(sys.argv[2]))
br = doc["metrics_by_round"]
assert [r["round"] for r in br] == [0, 1], br
assert br[0]["metrics"]["overall"]["pass@1"] == 0 and br[0]["metrics"]["overall"]["compile@1"] == 0, br[0]
assert br[1]["metrics"]["overall"]["pass@1"] == 1, br[1]
assert s["metrics_by_round"] == br
PY
check "bench llm: report shows the rounds" grep -q "By repair round" bench/report.html
check "bench llm: each round's reply kept for the report (the failing one too)" "$PY" -c "
import json; a = json.load(open('bench/results.json'))['attempts']['activation/relu']
assert all(x.get('reply') for x in a) and 'cost_usd' in a[0], a"
# In headless Chromium: the pass-by-round chart drawn, the failing round's reply on the task page, tokens counted.
if "$PY" "$SRC/tests/browser_check.py" bench/report.html --svg-title "metrics by repair round" \
     --text "tokens in / out" --text "characters" --filter tasktable verdict correct 1; then :; else fails=$((fails + 1)); fi
"$KGEN" bench --suite "$SRC/tasks" --generator llm:fake-model --base-url "http://127.0.0.1:$PORT/v1" --no-cache --filter activation/relu \
  --trials 1 --jobs 1 --out bench > bench2.txt 2>&1
check "bench llm: the table says it is after the repair rounds, then each round" bash -c \
  "grep -q 'metrics after the repair rounds' bench2.txt && grep -qE 'round 0 \(first reply\) +compile@1 +0.0%  pass@1 +0.0%' bench2.txt && grep -qE 'after round 1 +compile@1 +100.0%  pass@1 +100.0%' bench2.txt"
check "bench llm: no 'nothing changed' on a generator run" bash -c "! grep -q 'nothing changed' bench2.txt"

# ---- kgen data export: training rows from the stores the LLM runs filled (docs/data.md) ----
# bench/results.db: relu's sample 0 failed its round 0 (compile error) and was fixed in round 1: one sft row from the
# correct result (the generation prompt -> the program, as the reply format asks) and one repair row (the repair
# prompt -> the fixing reply). Then two samples of one round, the first broken, the second correct: one DPO pair.
for f in chat sharegpt alpaca; do
  "$KGEN" data export --store bench/results.db --format $f --out "data/$f.jsonl" > "data-$f.txt" 2>&1
  check "data export --format $f: exit 0, 1 sft and 1 repair row" grep -q "2 row(s) (1 repair, 1 sft)" "data-$f.txt"
done
start_server "$(script "$broken" "$good")"
"$KGEN" bench --suite "$SRC/tasks" --generator llm:fake-model --base-url "http://127.0.0.1:$PORT/v1" --no-cache \
  --filter activation/relu --samples 2 --rounds 1 --trials 1 --jobs 1 --no-perf-shape --out dpo > dpo.txt 2>&1
"$KGEN" data export --store dpo/results.db --format dpo --out data/dpo.jsonl > data-dpo.txt 2>&1
check "data export --format dpo: one pair (the correct sample over the broken one)" grep -q "1 row(s) (1 dpo)" data-dpo.txt
py_check "data export: each layout's fields, the prompt as generation sends it, the reply as the format asks, provenance" "$SRC" <<'PY'
import json, sys
src = sys.argv[1]
prog = open(f"{src}/kernels/activation/relu.tile").read().rstrip("\n")
rows = {f: [json.loads(l) for l in open(f"data/{f}.jsonl")] for f in ("chat", "sharegpt", "alpaca", "dpo")}
for f, rs in rows.items():
    for r in rs:
        p = r["provenance"]
        assert r["kind"] in ("sft", "repair", "dpo") and p["task_id"] == "activation/relu" and p["soc"] == "Ascend910B2", (f, r["kind"], p)
        assert p["kgen_version"] and p["source"] in ("result", "trajectory"), p
chat = {r["kind"]: r for r in rows["chat"]}
sft, rep = chat["sft"], chat["repair"]
assert [m["role"] for m in sft["messages"]] == ["system", "user", "assistant"], [m["role"] for m in sft["messages"]]
assert "activation/relu" in sft["messages"][1]["content"] and "tile" in sft["messages"][0]["content"]
assert sft["messages"][2]["content"] == "```tile\n" + prog + "\n```", sft["messages"][2]["content"][:200]
assert sft["provenance"]["verdict"] == "correct" and len(sft["provenance"]["candidate_hash"]) == 64 and sft["provenance"]["task_hash"]
roles = [m["role"] for m in rep["messages"]]
assert roles[-1] == "assistant" and "assistant" in roles[:-1] and rep["provenance"]["round"] == 1, roles
assert "relux" in "".join(m["content"] for m in rep["messages"][:-1]) and prog in rep["messages"][-1]["content"]
sg = {r["kind"]: r for r in rows["sharegpt"]}["sft"]
assert sg["system"] == sft["messages"][0]["content"] and [c["from"] for c in sg["conversations"]] == ["human", "gpt"]
al = {r["kind"]: r for r in rows["alpaca"]}
assert al["sft"]["instruction"] == sft["messages"][1]["content"] and al["sft"]["output"] == sft["messages"][2]["content"]
assert al["repair"]["history"] and al["repair"]["output"] == rep["messages"][-1]["content"]
(d,) = rows["dpo"]
assert [m["role"] for m in d["prompt"]] == ["system", "user"] and prog in d["chosen"][0]["content"], d["prompt"]
assert "relux" in d["rejected"][0]["content"] and d["provenance"]["rejected"]["verdict"] == "not correct"
PY
"$KGEN" data export --store nope.db --format chat --out data/x.jsonl > data-bad.txt 2>&1
check "data export: a missing store is exit 2, named, and nothing written" bash -c \
  "test $? = 2 && grep -q 'nope.db: no such results store' data-bad.txt && ! test -e nope.db && ! test -e data/x.jsonl"
"$KGEN" data export --store bench/results.db --format csv --out data/x.jsonl > data-bad2.txt 2>&1
check "data export: an unknown format is exit 2 with the known ones" bash -c "test $? = 2 && grep -q 'chat, sharegpt, alpaca' data-bad2.txt"

# ---- an endpoint nothing listens at: exit 1 at once, the endpoint named, no minute of retries ----
t0=$(date +%s)
rc=0; "${GEN[@]}" --base-url "http://127.0.0.1:9/v1" --no-cache --out out-refused > refused.out 2> refused.err || rc=$?
check "refused endpoint: exit 1" test "$rc" = 1
check "refused endpoint: at once ($(( $(date +%s) - t0 )) s), not retried" test $(( $(date +%s) - t0 )) -lt 10
check "refused endpoint: named" grep -q "connection refused to 127.0.0.1:9.*base URL http://127.0.0.1:9/v1; not retried" refused.err

echo "$fails failure(s)"
[ "$fails" = 0 ]
