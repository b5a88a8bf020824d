#!/usr/bin/env bash
# kgen serve end to end (docs/rl.md): the service started on loopback and called with real HTTP clients (curl, and
# urllib through the kgen Python package installed with pip into a venv): every endpoint, the reward components,
# idempotence, the faults of bad input, a full queue, a client that hangs up, a worker's process killed mid-run and the
# service killed and restarted; the verl, TRL and OpenRLHF adapters called as those frameworks call them, checked
# against `kgen eval` for the same candidates.
# Usage: serve_test.sh KGEN SOURCE_DIR
set -u
KGEN=$(realpath "$1")
SRC=$(realpath "$2")
PY=/usr/bin/python3
W=$(mktemp -d /tmp/kgen-serve-test.XXXXXX)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$W"; }
trap cleanup EXIT
export KGEN_CACHE=$W/cache
fail=0
pass=0
ok() { pass=$((pass + 1)); echo "ok   $1 [${SECONDS}s]"; }   # [elapsed]: where the test's time goes
bad() { fail=$((fail + 1)); echo "FAIL $1 [${SECONDS}s]"; [ -n "${2:-}" ] && echo "$2" | head -40; }
check() {   # check NAME -- PYTHON (reads the globals below; an assert failing is the FAIL)
  local name=$1; shift 2
  local o; o=$("$@" 2>&1) && ok "$name${o:+: $(echo "$o" | tail -1)}" || bad "$name" "$o"
}

start() {   # start NAME ARGS... : a kgen serve on a free port; sets URL and SERVER_PID
  rm -f "$W/$1.port"
  "$KGEN" serve --port 0 --port-file "$W/$1.port" "${@:2}" >"$W/$1.log" 2>&1 &
  SERVER_PID=$!
  disown "$SERVER_PID"
  PIDS+=("$SERVER_PID")
  for _ in $(seq 1 200); do [ -s "$W/$1.port" ] && break; sleep 0.05; done
  if [ ! -s "$W/$1.port" ]; then bad "start $1" "$(cat "$W/$1.log")"; exit 1; fi
  URL="http://127.0.0.1:$(cat "$W/$1.port")"
}

# --- candidates: the leaky_relu op project as a model's reply, and variants -----------------------------------------
BASE=$SRC/examples/op_projects/leaky_relu
KERNEL=op_kernel/leaky_relu_custom.cpp
HOST=op_host/leaky_relu_custom.cpp
variant() {   # variant NAME FILE SED: a copy of BASE with one edit
  rm -rf "$W/$1"; cp -r "$BASE" "$W/$1"; sed -i "$3" "$W/$1/$2"
  cmp -s "$BASE/$2" "$W/$1/$2" && bad "variant $1: the sed changed nothing"
}
cp -r "$BASE" "$W/good"
variant wrong "$KERNEL" 's/this->slope = static_cast<T>(slope);/this->slope = static_cast<T>(slope * 1.5f);/'
variant broken "$HOST" 's/static ge::graphStatus InferDataType/static int broken = ;\nstatic ge::graphStatus InferDataType/'
variant hack "$HOST" 's/    uint64_t totalLength = /    const char* dir = getenv("KGEN_CACHE");\n    uint64_t totalLength = /'
variant slow "$KERNEL" 's/    GET_TILING_DATA(tilingData, tiling);/    volatile int spin = 1; while (spin) {}\n    GET_TILING_DATA(tilingData, tiling);/'
# reply.py NAME: the folder as a model's reply: a <think> block with a decoy fence, then every file in a <file> tag.
cat >"$W/reply.py" <<'EOF'
import os, sys
d = sys.argv[1]
out = ["<think>\nFirst try:\n```cpp\nint not_the_answer;\n```\n</think>\nHere is the operator."]
for root, _, files in sorted(os.walk(d)):
    for f in sorted(files):
        p = os.path.join(root, f)
        out.append(f'<file path="{os.path.relpath(p, d)}">\n{open(p).read()}\n</file>')
print("\n".join(out))
EOF
for c in good wrong broken hack slow; do "$PY" "$W/reply.py" "$W/$c" >"$W/$c.reply"; done
TASK=activation/leaky_relu

# --- the Python package, installed the way its README says (offline, into a venv on Debian's python) -------------
if "$PY" -m venv --system-site-packages "$W/venv" >"$W/venv.log" 2>&1 &&
   cp -r "$SRC/python" "$W/pysrc" &&   # pip builds in the folder it is given: not in the source tree
   "$W/venv/bin/pip" install --no-index --no-build-isolation --no-deps -q "$W/pysrc" >>"$W/venv.log" 2>&1; then
  ok "pip install ./python into a venv"
else
  bad "pip install ./python" "$(cat "$W/venv.log")"; exit 1
fi
VPY=$W/venv/bin/python
cd "$W"   # so that `import kgen` is the installed package, not a source folder

# --- one service: endpoints, rewards, idempotence --------------------------------------------------------------------
# The endpoints, rewards and faults are judged at the check shapes (--no-perf-shape): what they test is the service,
# not leaky_relu's 6.4 GB timing-only run, which the "perf shape" check below times once.
start main --workers 2 --trials 2 --no-perf-shape
export KGEN_SERVE_URL=$URL
cat >"$W/common.py" <<EOF
import json, os, time, urllib.request, urllib.error
URL = os.environ.get("KGEN_SERVE_URL", "")
W = "$W"
TASK = "$TASK"
def reply(name): return open(f"{W}/{name}.reply").read()
def post(path, body, raw=None, timeout=600):
    data = raw if raw is not None else json.dumps(body).encode()
    r = urllib.request.Request(URL + path, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(r, timeout=timeout) as f: return f.status, json.load(f), dict(f.headers)
    except urllib.error.HTTPError as e: return e.code, json.load(e), dict(e.headers)
def kgen_eval(name):
    import subprocess
    o = subprocess.run(["$KGEN", "eval", "--task", "$SRC/tasks/$TASK.py", "--candidate", f"{W}/{name}", "--trials", "2",
                        "--no-perf-shape", "--json"], capture_output=True, text=True)
    return json.loads(o.stdout)
EOF
export PYTHONPATH_COMMON=$W

check "GET /health (curl)" -- bash -c "curl -sf $URL/health | $PY -c 'import json,sys; h=json.load(sys.stdin); assert h[\"status\"]==\"healthy\" and h[\"workers\"]==2 and h[\"reward\"][\"kind\"]==\"speedup\", h'"

check "POST /evaluate: correct, reward = 0.5 + 0.5 min(speedup, 3), same verdict and speedup as kgen eval" -- "$VPY" -c '
import sys; sys.path.insert(0, "'"$W"'"); from common import *
s, j, _ = post("/evaluate", {"task_id": TASK, "kernel_code": reply("good"), "num_correct_trials": 2, "uuid": "u1"})
assert s == 200 and j["compiled"] and j["correctness"] and j["verdict"] == "correct" and j["uuid"] == "u1", j
assert j["error_code"] is None and j["cached"] is False and j["speedup"] > 0, j
assert abs(j["speedup"] - j["reference_runtime"] / j["kernel_runtime"]) < 1e-9 * j["speedup"], j
want = 0.5 + 0.5 * min(j["speedup"], 3.0)
c = j["reward"]["components"]
assert abs(j["reward"]["total"] - want) < 1e-12 and c["correct"] == 0.5 and abs(c["speedup"] - 0.5 * min(j["speedup"], 3)) < 1e-12, j["reward"]
assert "modeled" in j["runtime_unit"] and "Ascend910B2" in j["runtime_unit"], j
assert all(k in j["timings"] for k in ("queue_s", "reference_s", "build_s", "run_s", "evaluation_s")), j["timings"]
e = kgen_eval("good")
assert e["verdict"] == "correct" and abs(e["speedup"] - j["speedup"]) < 1e-9 * e["speedup"], (e["speedup"], j["speedup"])
sp, rw = j["speedup"], j["reward"]["total"]
print(f"speedup {sp:.3f} (modeled), reward {rw:.3f}")
'

check "idempotence: the same request is answered from the store, identically; other trials are a new evaluation" -- "$VPY" -c '
import sys; sys.path.insert(0, "'"$W"'"); from common import *
post("/evaluate", {"task_id": TASK, "kernel_code": reply("good"), "num_correct_trials": 2})
a = post("/evaluate", {"task_id": TASK, "kernel_code": reply("good"), "num_correct_trials": 2})[1]
t = time.perf_counter(); b = post("/evaluate", {"task_id": TASK, "kernel_code": reply("good"), "num_correct_trials": 2})[1]; dt = time.perf_counter() - t
assert a["cached"] and b["cached"], (a["cached"], b["cached"])
for k in ("verdict", "speedup", "kernel_runtime", "reference_runtime", "reward", "diagnostics"): assert a[k] == b[k], k
c = post("/evaluate", {"task_id": TASK, "kernel_code": reply("good"), "num_correct_trials": 1})[1]
assert c["cached"] is False and c["verdict"] == "correct", c
f = post("/evaluate", {"task_id": TASK, "kernel_code": reply("good"), "num_correct_trials": 1, "force_refresh": True})[1]
assert f["cached"] is False, f
print(f"cached answer in {dt * 1000:.1f} ms")
'

check "verdicts: wrong answer 0, compile error 0, hack -1 (below a compile error), no code 0, each like kgen eval" -- "$VPY" -c '
import sys; sys.path.insert(0, "'"$W"'"); from common import *
want = {"wrong": ("wrong-answer", "CORRECTNESS_ERROR", True, 0.0), "broken": ("compile-error", "COMPILATION_ERROR", False, 0.0),
        "hack": ("cheating", "CORRECTNESS_ERROR", True, -1.0)}
for name, (verdict, code, compiled, reward) in want.items():
    s, j, _ = post("/evaluate", {"task_id": TASK, "kernel_code": reply(name)})
    assert s == 200 and j["verdict"] == verdict and j["error_code"] == code and j["compiled"] == compiled, (name, j)
    assert j["reward"]["total"] == reward and not j["correctness"] and j["speedup"] == 0, (name, j["reward"])
    assert j["error_message"] and j["diagnostics"], j
    assert kgen_eval(name)["verdict"] == verdict, name
s, j, _ = post("/evaluate", {"task_id": TASK, "kernel_code": reply("hack")})
assert j["decoy_kernel"] and j["hack"] == "test-access" and "getenv" in j["error_message"], j
assert j["reward"]["components"]["penalty"] == -1.0, j["reward"]
s, j, _ = post("/evaluate", {"task_id": TASK, "kernel_code": "I cannot write this kernel."})
assert s == 200 and j["verdict"] == "no-code" and j["error_code"] == "VALIDATION_ERROR" and j["reward"]["total"] == 0.0, j
s, j, _ = post("/evaluate", {"task_id": TASK, "kernel_code": reply("broken")})
assert any("leaky_relu_custom.cpp:" in d for d in j["diagnostics"]), j["diagnostics"]
'

check "reference_code instead of a suite task (KernelGym style)" -- "$VPY" -c '
import sys; sys.path.insert(0, "'"$W"'"); from common import *
ref = open("'"$SRC/tasks/$TASK.py"'").read()
s, j, _ = post("/evaluate", {"task_id": "mine/leaky_relu", "reference_code": ref, "kernel_code": reply("good"), "num_correct_trials": 1})
assert s == 200 and j["verdict"] == "correct" and j["task_id"] == "mine/leaky_relu", j
'

check "POST /evaluate/batch: parallel, in order, invalid tasks answered in place" -- "$VPY" -c '
import sys; sys.path.insert(0, "'"$W"'"); from common import *
tasks = [{"task_id": TASK, "kernel_code": reply("good"), "uuid": "a"}, {"task_id": TASK, "kernel_code": reply("wrong"), "uuid": "b"},
         {"task_id": "nope/none", "kernel_code": "x"}, {"task_id": TASK, "kernel_code": reply("good"), "num_correct_trials": 3}]
s, j, _ = post("/evaluate/batch", {"batch_id": "b1", "tasks": tasks})
assert s == 200 and j["batch_id"] == "b1" and j["total_tasks"] == 4 and len(j["results"]) == 4, j
r = j["results"]
assert r[0]["uuid"] == "a" and r[0]["verdict"] == "correct" and r[1]["uuid"] == "b" and r[1]["verdict"] == "wrong-answer", r
assert r[2]["http_status"] == 404 and r[2]["error_code"] == "VALIDATION_ERROR" and "tasks[2]" in r[2]["error_message"], r[2]
assert r[3]["verdict"] == "correct" and r[3]["metadata"]["trials"] == 3, r[3]
assert j["completed_tasks"] == 3 and j["failed_tasks"] == 1, (j["completed_tasks"], j["failed_tasks"])
'

check "POST /get_reward (OpenRLHF): rewards, scores, extra_logs from query = prompt + response" -- "$VPY" -c '
import sys; sys.path.insert(0, "'"$W"'"); from common import *
prompt = "Write leaky_relu. Example of a wrong answer:\n```cpp\nint x;\n```\n"
q = [prompt + reply("good"), prompt + reply("wrong"), prompt + "no idea", prompt + reply("hack")]
labels = [TASK, "ascendc:" + TASK, json.dumps({"task_id": TASK}), TASK]
s, j, _ = post("/get_reward", {"query": q, "prompts": [prompt] * 4, "labels": labels})
assert s == 200, j
good = post("/evaluate", {"task_id": TASK, "kernel_code": reply("good")})[1]
assert j["rewards"] == [good["reward"]["total"], 0.0, 0.0, -1.0], j["rewards"]
assert j["scores"] == [1.0, 0.0, 0.0, 0.0] and j["extra_logs"]["hack"] == [0, 0, 0, 1.0] and j["extra_logs"]["no_code"][2] == 1.0, j
s2, j2, _ = post("/reward", {"query": q[:1], "prompts": [prompt], "labels": labels[:1]})
assert s2 == 200 and j2["rewards"] == j["rewards"][:1], j2
'

check "bad input: precise status and error body for each" -- "$VPY" -c '
import sys; sys.path.insert(0, "'"$W"'"); from common import *
cases = [
  ("malformed JSON", "/evaluate", None, b"{\"task_id\": ", 400, "not JSON: at byte"),
  ("not an object", "/evaluate", None, b"[1, 2]", 400, "JSON object"),
  ("empty body", "/evaluate", None, b"", 400, "no body"),
  ("unknown task", "/evaluate", {"task_id": "nope/none", "kernel_code": "x"}, None, 404, "unknown task"),
  ("no kernel_code", "/evaluate", {"task_id": TASK}, None, 422, "kernel_code"),
  ("bad trials", "/evaluate", {"task_id": TASK, "kernel_code": "x", "num_correct_trials": 0}, None, 422, "num_correct_trials"),
  ("bad timeout", "/evaluate", {"task_id": TASK, "kernel_code": "x", "timeout": 1}, None, 422, "timeout"),
  ("bad target", "/evaluate", {"task_id": TASK, "kernel_code": "x", "target": "cuda"}, None, 422, "not one kgen evaluates"),
  ("path in task_id", "/evaluate", {"task_id": "../../etc/passwd", "kernel_code": "x"}, None, 422, "CATEGORY/NAME"),
  ("empty batch", "/evaluate/batch", {"batch_id": "x", "tasks": []}, None, 422, "at least one task"),
  ("lengths differ", "/get_reward", {"query": ["a"], "prompts": [], "labels": []}, None, 422, "as long as"),
  ("bad label", "/get_reward", {"query": ["a"], "labels": [5]}, None, 422, "labels[0]"),
  ("10 MB body", "/evaluate", None, b"{\"kernel_code\": \"" + b"x" * 10_000_000 + b"\"}", 413, "larger than"),
]
for name, path, body, raw, status, text in cases:
    s, j, _ = post(path, body, raw)
    assert s == status and text in j["error_message"] and j["error_code"] and j["detail"], (name, s, j)
r = urllib.request.Request(URL + "/nothing")
try: urllib.request.urlopen(r); assert False
except urllib.error.HTTPError as e: assert e.code == 404 and "not an endpoint" in json.load(e)["error_message"]
s, j, _ = post("/evaluate", {"task_id": TASK, "kernel_code": "<file path=\"../../x.cpp\">int a;</file>"})
assert s == 200 and j["verdict"] == "no-code" and "leaves the project" in j["error_message"], j
print(f"{len(cases) + 2} cases")
'

check "GET /metrics (Prometheus text): queue, evaluations by verdict, latency quantiles, requests" -- bash -c "
m=\$(curl -sf $URL/metrics) &&
echo \"\$m\" | grep -q '^kgen_serve_queue_depth 0' &&
echo \"\$m\" | grep -qE '^kgen_serve_evaluations_total\{verdict=\"correct\"\} [0-9]+' &&
echo \"\$m\" | grep -qE '^kgen_serve_evaluations_total\{verdict=\"cheating\"\} [0-9]+' &&
echo \"\$m\" | grep -qE '^kgen_serve_latency_seconds\{quantile=\"0.95\"\} [0-9.]+' &&
echo \"\$m\" | grep -qE '^kgen_serve_requests_total\{endpoint=\"/evaluate\",status=\"413\"\} 1' &&
echo \"\$m\" | grep -q '^# TYPE kgen_serve_cached_total counter' || { echo \"\$m\"; exit 1; }"

# --- the adapters, called as the frameworks call them ---------------------------------------------------------------
check "kgen.evaluate and the verl, TRL and OpenRLHF adapters agree with /evaluate" -- "$VPY" -c '
import sys, json, importlib.util; sys.path.insert(0, "'"$W"'"); from common import post, reply, TASK
import kgen, kgen.verl, kgen.trl
assert kgen.__file__.startswith("'"$W"'/venv"), kgen.__file__
g = kgen.evaluate(TASK, reply("good"))
assert g["verdict"] == "correct" and g["cached"], g
wr = kgen.evaluate(TASK, reply("wrong"))
# verl: NaiveRewardManager calls compute_score(data_source=, solution_str=, ground_truth=, extra_info=)
v = kgen.verl.compute_score(data_source="kgen", solution_str=reply("good"), ground_truth=TASK, extra_info={"index": 0})
assert v["score"] == g["reward"]["total"] and v["correct"] == 1.0 and v["speedup"] == g["speedup"], v
# verl batch reward manager: compute_score(data_sources=, solution_strs=, ground_truths=, extra_infos=)
b = kgen.verl.compute_score_batch(data_sources=["kgen"] * 2, solution_strs=[reply("good"), reply("wrong")],
                                  ground_truths=[TASK, TASK], extra_infos=[{}, {}])
assert [x["score"] for x in b] == [g["reward"]["total"], wr["reward"]["total"]], b
# verl loads the function from a file path (custom_reward_function.path)
spec = importlib.util.spec_from_file_location("custom_module", "'"$SRC"'/python/kgen/verl.py")
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
assert m.compute_score("kgen", reply("hack"), TASK, None)["score"] == -1.0
# TRL GRPOTrainer: reward_func(prompts=, completions=, completion_ids=, **dataset columns); conversational completions
conv = [[{"role": "assistant", "content": reply("good")}], [{"role": "assistant", "content": reply("broken")}]]
t = kgen.trl.reward_func(prompts=[[{"role": "user", "content": "p"}]] * 2, completions=conv, completion_ids=[[1], [2]],
                         label=[TASK, TASK], trainer_state=None)
assert t == [g["reward"]["total"], 0.0], t
t2 = kgen.trl.reward_func(prompts=["p"], completions=[reply("wrong")], completion_ids=[[1]], task_id=[TASK])
assert t2 == [0.0], t2
logged = {}
t3 = kgen.trl.reward_func(prompts=["p", "p"], completions=[reply("good"), reply("hack")], completion_ids=[[1], [2]],
                          label=[TASK, TASK], log_extra=lambda c, v: logged.update({c: v}),
                          log_metric=lambda n, v: logged.update({n: v}))
assert t3 == [g["reward"]["total"], -1.0] and logged["kgen_verdict"] == ["correct", "cheating"], (t3, logged)
assert logged["kgen/correct"] == 0.5 and logged["kgen/hack"] == 0.5, logged
# OpenRLHF: --remote_rm_url FILE.py, loaded by path and called reward_func(queries, prompts, labels)
spec = importlib.util.spec_from_file_location("reward_func", "'"$SRC"'/python/kgen/openrlhf.py")
o = importlib.util.module_from_spec(spec); spec.loader.exec_module(o)
r = o.reward_func(["p" + reply("good"), "p" + reply("hack")], ["p", "p"], [TASK, TASK])
assert abs(r["rewards"][0].item() - g["reward"]["total"]) < 1e-6 and r["rewards"][1].item() == -1.0 and r["scores"].tolist() == [1.0, 0.0], r
assert r["extra_logs"]["hack"].tolist() == [0.0, 1.0], r
'

check "kgen.LocalServer: a private kgen serve from Python (KGEN_BIN), answers from the shared store" -- env -u KGEN_SERVE_URL KGEN_BIN="$KGEN" "$VPY" -c '
import sys; sys.path.insert(0, "'"$W"'"); from common import reply, TASK
import kgen
with kgen.LocalServer(args=["--workers", "1", "--trials", "2", "--no-perf-shape"]) as srv:
    c = kgen.Client(srv.url)
    assert c.health()["workers"] == 1
    r = c.evaluate(TASK, reply("good"))
    assert r["verdict"] == "correct" and r["cached"], r
'

# --- faults -------------------------------------------------------------------------------------------------------
check "a client that hangs up mid-request: the evaluation finishes into the store, answered once, then from the store" -- "$VPY" -c '
import sys, socket; sys.path.insert(0, "'"$W"'"); from common import *
body = {"task_id": TASK, "kernel_code": reply("good").replace("Here is", "Here, again, is").replace("op.Process();", "op.Process(); // hung up")}
s, _, _ = post("/health", None, b"")  # warm
try: post("/evaluate", body, timeout=0.3); assert False, "answered too fast to test"
except (TimeoutError, socket.timeout, urllib.error.URLError): pass
for _ in range(600):
    m = urllib.request.urlopen(URL + "/metrics").read().decode()
    if "kgen_serve_workers_busy 0" in m and "kgen_serve_queue_depth 0" in m: break
    time.sleep(0.1)
s, j, _ = post("/evaluate", body)
assert s == 200 and j["cached"] and j["verdict"] == "correct", j
'

check "a worker process killed mid-evaluation: one answer, an error that says so" -- "$VPY" -c '
import sys, subprocess, threading; sys.path.insert(0, "'"$W"'"); from common import *
out = []
th = threading.Thread(target=lambda: out.append(post("/evaluate", {"task_id": TASK, "kernel_code": reply("slow"), "timeout": 60})))
th.start()
def oprun_of(server):   # the kgen-oprun processes below this server (not those of tests running beside this one)
    parent = {}
    for d in os.listdir("/proc"):
        try: parent[int(d)] = int(open(f"/proc/{d}/stat").read().rsplit(")", 1)[1].split()[1])
        except (ValueError, OSError, IndexError): pass
    def below(p):
        while p > 1:
            if p == server: return True
            p = parent.get(p, 0)
        return False
    out = []
    for p in parent:
        try: comm = open(f"/proc/{p}/comm").read().strip()
        except OSError: continue
        if comm == "kgen-oprun" and below(p): out.append(str(p))
    return out
killed = False
for _ in range(600):
    p = oprun_of('"$SERVER_PID"')
    if p:
        time.sleep(0.5); subprocess.run(["kill", "-9"] + p); killed = True; break
    time.sleep(0.05)
th.join(120)
assert killed and len(out) == 1, (killed, out)
s, j, _ = out[0]
assert s == 200 and j["verdict"] == "runtime-error" and j["error_code"] == "RUNTIME_ERROR" and j["category"] == "crash", j
assert any("signal 9" in d or "SIGKILL" in d or "killed" in d for d in j["diagnostics"]), j["diagnostics"]
'

check "kgen serve killed (-9) and restarted: completed results come from the store" -- bash -c "
kill -9 $SERVER_PID; sleep 0.2
'$KGEN' serve --port 0 --port-file '$W/again.port' --workers 2 --trials 2 --no-perf-shape >'$W/again.log' 2>&1 &
echo \$! > '$W/again.pid'
for _ in \$(seq 1 200); do [ -s '$W/again.port' ] && break; sleep 0.05; done
KGEN_SERVE_URL=http://127.0.0.1:\$(cat '$W/again.port') '$VPY' -c '
import sys; sys.path.insert(0, \"$W\"); from common import *
for name, verdict in ((\"good\", \"correct\"), (\"wrong\", \"wrong-answer\"), (\"hack\", \"cheating\")):
    s, j, _ = post(\"/evaluate\", {\"task_id\": TASK, \"kernel_code\": reply(name)})
    assert s == 200 and j[\"cached\"] and j[\"verdict\"] == verdict, (name, j[\"cached\"], j[\"verdict\"])
'"
PIDS+=("$(cat "$W/again.pid" 2>/dev/null)")

# The other rewards over the same store: tiered, and the speedup reward with its constants overridden.
start tiered --workers 1 --trials 2 --reward tiered --no-perf-shape
check "--reward tiered: correct by speedup tier, wrong -0.3, compile error -0.5, hack -1" -- env KGEN_SERVE_URL="$URL" "$VPY" -c '
import sys; sys.path.insert(0, "'"$W"'"); from common import *
got = {n: post("/evaluate", {"task_id": TASK, "kernel_code": reply(n)})[1] for n in ("good", "wrong", "broken", "hack")}
sp = got["good"]["speedup"]
tier = 1.0 if sp >= 3 else 0.8 if sp >= 2 else 0.6 if sp >= 1.5 else 0.4 if sp >= 1.2 else 0.2 if sp >= 1 else -0.1
assert [got[n]["reward"]["total"] for n in ("good", "wrong", "broken", "hack")] == [tier, -0.3, -0.5, -1.0], got
assert all(g["cached"] for g in got.values()) and got["good"]["reward"]["kind"] == "tiered"
'
kill -TERM "$SERVER_PID"
start capped --workers 1 --trials 2 --no-perf-shape --reward-config '{"speedup_cap": 1.0, "correct_weight": 0.25, "hack_penalty": -2}'
check "--reward-config: the constants change the reward, not the verdict" -- env KGEN_SERVE_URL="$URL" "$VPY" -c '
import sys; sys.path.insert(0, "'"$W"'"); from common import *
g = post("/evaluate", {"task_id": TASK, "kernel_code": reply("good")})[1]
h = post("/evaluate", {"task_id": TASK, "kernel_code": reply("hack")})[1]
assert abs(g["reward"]["total"] - (0.25 + 0.5 * min(g["speedup"], 1.0))) < 1e-12 and h["reward"]["total"] == -2.0, (g["reward"], h["reward"])
'
kill -TERM "$SERVER_PID"

# The perf shape: a service that times candidates at the task's real size (the default) answers with the
# timing-only run at KernelBench's 4096 x 393216, where a one-for-one leaky_relu is HBM-bound and 1.0x of eager.
start perf --workers 1 --trials 1
check "perf shape: /evaluate times the candidate at the task's real size (timing-only), the same as kgen eval" -- env KGEN_SERVE_URL="$URL" "$VPY" -c '
import sys, subprocess; sys.path.insert(0, "'"$W"'"); from common import *
s, j, _ = post("/evaluate", {"task_id": TASK, "kernel_code": reply("good"), "num_correct_trials": 1})
assert s == 200 and j["verdict"] == "correct" and j["runtime_shape"] == "perf batch_size=4096,dim=393216", j
assert j["perf"]["bound"] == "HBM" and 0.95 <= j["speedup"] <= 1.05 and j["reference_runtime"] > 1000, j["perf"]
e = json.loads(subprocess.run(["'"$KGEN"'", "eval", "--task", "'"$SRC"'/tasks/" + TASK + ".py", "--candidate", W + "/good",
                               "--trials", "1", "--json"], capture_output=True, text=True).stdout)
assert abs(e["speedup"] - j["speedup"]) < 1e-9 * e["speedup"], (e["speedup"], j["speedup"])
print("%.3fx at %s (modeled)" % (j["speedup"], j["runtime_shape"]))
'
kill -TERM "$SERVER_PID"

# A small queue: 1,000 requests at once, each a fresh candidate; every one answered once (200 or 429 with
# Retry-After), the 200s with their own uuid, the service healthy after. The queue is what is tested: the
# candidates are judged at the check shapes only (--no-perf-shape), not timed again at the task's 6.4 GB perf shape.
start small --workers 2 --queue 6 --trials 1 --no-perf-shape
check "1,000 requests at once against a queue of 6: 200 or 429 (Retry-After) each, none lost or crossed" -- env KGEN_SERVE_URL="$URL" "$VPY" -c '
import sys, threading; sys.path.insert(0, "'"$W"'"); from common import *
good = reply("good")
res = [None] * 1000
def one(i):
    body = {"task_id": TASK, "kernel_code": good.replace("op.Process();", f"op.Process(); // {i}"), "uuid": f"q{i}"}
    try: res[i] = post("/evaluate", body, timeout=600)
    except Exception as e: res[i] = ("exception", repr(e), {})
ths = [threading.Thread(target=one, args=(i,)) for i in range(1000)]
[t.start() for t in ths]; [t.join() for t in ths]
codes = [r[0] for r in res]
assert set(codes) <= {200, 429}, [r for r in res if r[0] not in (200, 429)][:3]
ok = [i for i, r in enumerate(res) if r[0] == 200]
assert ok and codes.count(429) > 0, (len(ok), codes.count(429))
assert all(res[i][1]["uuid"] == f"q{i}" and res[i][1]["verdict"] == "correct" for i in ok)
busy = [r for r in res if r[0] == 429]
assert all(int(r[2]["Retry-After"]) >= 1 and "busy" in r[1]["error_message"] for r in busy)
h = json.load(urllib.request.urlopen(URL + "/health"))
assert h["status"] == "healthy" and h["queue_status"]["queued"] == 0, h
print(f"{len(ok)} evaluated, {len(busy)} refused with 429")
'

check "SIGTERM: kgen serve stops cleanly (exit 0)" -- bash -c "kill -TERM $SERVER_PID; for _ in \$(seq 1 100); do kill -0 $SERVER_PID 2>/dev/null || break; sleep 0.1; done; ! kill -0 $SERVER_PID 2>/dev/null && grep -q 'kgen serve: stopped' '$W/small.log'"
"$KGEN" serve --port 0 --reward nothing >/dev/null 2>&1; [ $? -ne 0 ] && ok "usage: --reward nothing refused" || bad "usage: --reward"
"$KGEN" serve --port 0 --reward-config '{"speedup_cap": "x"}' 2>&1 | grep -q "not a number" && ok "usage: --reward-config checked" || bad "usage: --reward-config"

echo "serve_test: $pass passed, $fail failed"
[ $fail -eq 0 ]
