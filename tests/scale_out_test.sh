#!/usr/bin/env bash
# kgen beyond one machine (docs/scale-out.md), with the real components started here on loopback: a PostgreSQL server
# in a temporary folder (scripts/pg_local.sh: initdb / pg_ctl as an unprivileged user), a Dask scheduler and two
# workers (Debian python3-distributed). Checks: both store backends through the one interface (the unit tests with
# KGEN_TEST_PG_URL); `kgen cluster check` (a worker with another kgen refused, with the reason); a bench over a slice of
# the suite on the cluster matches the local run row for row (content hashes, verdicts, modeled times); a worker killed
# by its PID mid-evaluation loses nothing; two benches as two "hosts" (separate caches) sharing one PostgreSQL store
# evaluate each candidate once; two kgen serve instances share the store, and one drains on SIGTERM.
# Usage: scale_out_test.sh KGEN SOURCE_DIR
set -u
KGEN=$(realpath "$1")
SRC=$(realpath "$2")
UNIT=$(dirname "$KGEN")/tests/kgen_unit_tests
PY=/usr/bin/python3
T=$(mktemp -d /tmp/kgen-scale-out-XXXXXX)
chmod 711 "$T"   # the PostgreSQL server (user nobody when we are root) must reach its folder below
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
  "$SRC/scripts/pg_local.sh" stop "$T/pg" >/dev/null 2>&1
  rm -rf "$T"
}
trap cleanup EXIT
fails=0
ok() { echo "ok   $1 [${SECONDS}s]"; }
bad() { echo "FAIL $1 [${SECONDS}s]"; [ -n "${2:-}" ] && echo "$2" | tail -30; fails=$((fails + 1)); }
check() {  # check NAME COMMAND...
  local name=$1; shift
  local o; o=$("$@" 2>&1) && ok "$name" || bad "$name" "$o"
}
cd "$T" || exit 1

for tool in dask-scheduler dask-worker; do
  command -v $tool >/dev/null || { echo "FAIL $tool missing (scripts/setup.sh installs python3-distributed)"; exit 1; }
done

# ---- PostgreSQL ----
URL=$("$SRC/scripts/pg_local.sh" start "$T/pg") || { bad "PostgreSQL server starts" "$(cat "$T/pg/server.log" 2>/dev/null)"; exit 1; }
ok "PostgreSQL server on $URL"
db() {  # db NAME: a fresh database of that server; prints its URL
  psql -q "$URL" -c "CREATE DATABASE $1" >/dev/null && echo "${URL%/*}/$1"
}
if [ -x "$UNIT" ]; then
  check "both store backends (unit tests with KGEN_TEST_PG_URL)" \
    env KGEN_TEST_PG_URL="$(db unit)" "$UNIT" --gtest_filter='Both/StoreBackends.*:StoreUrls.*'
fi

# ---- Dask: a scheduler, two workers (no nanny: a killed worker stays dead), each with its own kgen cache ----
dask-scheduler --host 127.0.0.1 --port 0 --no-dashboard --scheduler-file "$T/sched.json" >"$T/sched.log" 2>&1 &
PIDS+=($!)
disown $!   # killed at the end: no "Killed" line from the shell
for _ in $(seq 1 100); do [ -s "$T/sched.json" ] && break; sleep 0.1; done
SCHED=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["address"])' "$T/sched.json") ||
  { bad "Dask scheduler starts" "$(cat "$T/sched.log")"; exit 1; }
start_worker() {  # start_worker NAME KGEN_BINARY
  KGEN=$2 KGEN_CACHE=$T/cache-$1 dask-worker "$SCHED" --nthreads 1 --no-nanny --name "$1" \
    --local-directory "$T/dask-$1" >"$T/$1.log" 2>&1 &
  PIDS+=($!)
  disown $!
  eval "PID_$1=$!"
}
start_worker w1 "$KGEN"
start_worker w2 "$KGEN"
workers() { $PY -c 'import json,sys; print(len(json.load(open(sys.argv[1])).get("workers", {})))' "$T/sched.json" 2>/dev/null; }
wait_workers() {  # wait_workers N: the scheduler lists N workers
  for _ in $(seq 1 150); do
    [ "$($PY - "$SCHED" <<'PY' 2>/dev/null
import sys
from distributed import Client
with Client(sys.argv[1], timeout=10) as c:
    print(len(c.scheduler_info()["workers"]))
PY
)" = "$1" ] && return 0
    sleep 0.2
  done
  return 1
}
wait_workers 2 || { bad "two Dask workers join" "$(tail -5 "$T"/w*.log)"; exit 1; }
ok "Dask scheduler $SCHED with two workers"

# A third worker whose kgen is another version: refused, with the reason.
cat >"$T/other-kgen" <<'EOF'
#!/bin/sh
echo "kgen 0.0.9"
EOF
chmod +x "$T/other-kgen"
start_worker w3 "$T/other-kgen"
# A fourth whose kgen is the same version but whose sandbox does not work (`kgen sandbox check` fails there).
printf '#!/bin/sh\nif [ "$1" = sandbox ]; then echo "isolation: bubblewrap cannot create a user namespace here" >&2; exit 2; fi\nexec %s "$@"\n' \
  "$KGEN" >"$T/no-sandbox-kgen"
chmod +x "$T/no-sandbox-kgen"
start_worker w4 "$T/no-sandbox-kgen"
wait_workers 4 || bad "the third and fourth workers join"
"$KGEN" cluster check --scheduler "$SCHED" >check.txt 2>&1
check "kgen cluster check: w1 and w2 take work; w3 (kgen 0.0.9) and w4 (no sandbox) refused with the reasons" \
  $PY - check.txt <<'PY'
import sys
t = open(sys.argv[1]).read()
assert "2 worker(s) take work, 2 evaluation(s) at once" in t, t
assert t.count("  ok ") == 2 and t.count("  refused ") == 2, t
assert "'kgen 0.0.9'" in t and "install the same kgen on the worker" in t, t
assert "`kgen sandbox check` fails on the worker: isolation: bubblewrap cannot create a user namespace here" in t, t
PY
kill -9 "$PID_w3" "$PID_w4"
wait_workers 2 || bad "the third and fourth workers leave"

# ---- A slice of the suite (links to three tasks), local and on the cluster ----
mkdir -p suite/activation
for t in relu swish leaky_relu; do ln -s "$SRC/tasks/activation/$t.py" suite/activation/$t.py; done
BENCH=(bench --suite suite --candidates "$SRC/candidates" --trials 1 --secret-trials 0 --no-perf-shape)
KGEN_CACHE=$T/cache-local "$KGEN" "${BENCH[@]}" --out local >local.txt 2>&1
check "local bench of the slice: exit 0" test $? = 0
"$KGEN" "${BENCH[@]}" --out cluster --cluster "$SCHED" --store "$(db cluster)" >cluster.txt 2>&1
check "bench --cluster of the slice: exit 0" test $? = 0
same_rows() {  # same_rows A B: results.json of two runs agree row for row
  $PY - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(f"{d}/results.json")) for d in sys.argv[1:3])
ka = {(r["task_id"], r["sample"]): r for r in a["results"]}
kb = {(r["task_id"], r["sample"]): r for r in b["results"]}
assert set(ka) == set(kb) and len(ka) == 3, (sorted(ka), sorted(kb))
for k, x in ka.items():
    y = kb[k]
    for f in ("task_hash", "candidate_hash", "verdict", "error_category", "kgen_version", "soc", "candidate",
              "modeled_us", "eager_modeled_us", "speedup"):
        assert x.get(f) == y.get(f), (k, f, x.get(f), y.get(f))
    assert [c.get("modeled_us") for c in x["cases"]] == [c.get("modeled_us") for c in y["cases"]], k
    assert [c.get("max_abs_err") for c in x["cases"]] == [c.get("max_abs_err") for c in y["cases"]], k
print(f"{len(ka)} rows equal")
PY
}
check "the cluster's results equal the local run's row for row" same_rows local cluster
check "the cluster run says where it ran" grep -q "evaluated on the Dask cluster $SCHED: 2 worker(s)" cluster/results.json

# ---- The same evaluation through kgen.cluster's pack_job / run_job called directly: what a Ray task runs ----
check "kgen.cluster.run_job(pack_job(...)) (the Ray recipe's calls) gives the local run's row" \
  env PYTHONPATH="$SRC/python" KGEN="$KGEN" KGEN_CACHE="$T/cache-ray" $PY - "$SRC" <<'PY'
import json, sys
from kgen.cluster import check_worker, pack_job, run_job
src = sys.argv[1]
import subprocess
version = subprocess.run([__import__("os").environ["KGEN"], "--version"], capture_output=True, text=True).stdout.strip()
assert check_worker(version)["ok"], check_worker(version)
assert not check_worker("kgen 0.0.9")["ok"]
job = pack_job(f"{src}/tasks/activation/swish.py", "activation/swish.py", f"{src}/candidates/activation/swish",
               {"trials": 1, "secret_trials": 0, "perf_shape": False})
got = json.loads(run_job(job)["result"])
want = next(r for r in json.load(open("local/results.json"))["results"] if r["task_id"] == "activation/swish")
for f in ("task_hash", "candidate_hash", "verdict", "modeled_us", "eager_modeled_us"):
    assert got[f] == want[f], (f, got[f], want[f])
print(got["verdict"], got["modeled_us"])
PY

# ---- A worker killed by its PID mid-evaluation: the scheduler runs its work elsewhere, nothing is lost ----
"$KGEN" "${BENCH[@]}" --out killed --cluster "$SCHED" >killed.txt 2>&1 &
BENCH_PID=$!
victim=""
for _ in $(seq 1 300); do   # an evaluation running on w1: its `kgen cluster worker-eval` child
  if pgrep -P "$PID_w1" -f "cluster worker-eval" >/dev/null; then victim=$PID_w1; break; fi
  if pgrep -P "$PID_w2" -f "cluster worker-eval" >/dev/null; then victim=$PID_w2; break; fi
  sleep 0.05
done
if [ -n "$victim" ]; then
  child=$(pgrep -P "$victim" -f "cluster worker-eval")
  kill -9 "$victim" $child
fi
wait "$BENCH_PID"
rc=$?
check "a worker killed mid-evaluation (PID ${victim:-none found}): the bench still ends, exit 0" test -n "$victim" -a "$rc" = 0
check "... and every row is there, equal to the local run's" same_rows local killed
check "... the scheduler saw the worker go" grep -q "Remove worker" sched.log

# ---- Two "hosts" (separate caches and output folders) sharing one PostgreSQL store: each candidate evaluated once ----
SHARED=$(db shared)
for h in 1 2; do
  KGEN_CACHE=$T/cache-host$h "$KGEN" "${BENCH[@]}" --out host$h --store "$SHARED" --jobs 1 >host$h.txt 2>&1 &
  eval "HOST$h=$!"
done
wait "$HOST1"; rc1=$?
wait "$HOST2"; rc2=$?
check "two hosts on one store: both exit 0" test "$rc1" = 0 -a "$rc2" = 0
check "... each of the 3 candidates evaluated once between them, one row each, no claim left" \
  $PY - "$SHARED" <<'PY'
import json, subprocess, sys
ev = [json.load(open(f"host{h}/results.json")) for h in (1, 2)]
assert sum(e["evaluated"] for e in ev) == 3, [e["evaluated"] for e in ev]
assert all(len(e["results"]) == 3 for e in ev)
q = lambda sql: subprocess.run(["psql", "-tA", sys.argv[1], "-c", sql], capture_output=True, text=True, check=True).stdout.strip()
assert q("SELECT count(*) FROM results") == "3", q("SELECT count(*) FROM results")
assert q("SELECT count(*) FROM claims") == "0"
print([e["evaluated"] for e in ev])
PY
check "... and agree with the local run" same_rows local host2

# ---- LLM replies in the shared store: a second host (another cache) reruns a generation without asking the model ----
FAKE=$(dirname "$KGEN")/kgen-fake-llm
if [ -x "$FAKE" ]; then
  GEN_STORE=$(db gen)
  $PY -c 'import json,sys; print(json.dumps([{"content": "Here it is.\n\n```tile\n" + open(sys.argv[1]).read() + "\n```\n"}]))' \
    "$SRC/kernels/activation/relu.tile" >script.json
  "$FAKE" --script script.json --log llm.jsonl --port-file llm.port --idle-exit 120 >/dev/null 2>&1 &
  PIDS+=($!)
  disown $!
  for _ in $(seq 50); do [ -s llm.port ] && break; sleep 0.1; done
  GEN=(generate --task activation/relu --model fake-model --trials 1 --no-perf-shape --store "$GEN_STORE"
       --base-url "http://127.0.0.1:$(cat llm.port)/v1")
  KGEN_CACHE=$T/cache-genA "$KGEN" "${GEN[@]}" --out genA >genA.txt 2>&1
  KGEN_CACHE=$T/cache-genB "$KGEN" "${GEN[@]}" --out genB >genB.txt 2>&1
  check "kgen generate on two hosts sharing a PostgreSQL store: one request to the model, the second host's reply from the store" \
    $PY - "$GEN_STORE" <<'PY'
import subprocess, sys
n = sum(1 for _ in open("llm.jsonl"))
assert n == 1, f"{n} requests reached the model"
assert "(1 from the cache)" in open("genB.txt").read(), open("genB.txt").read()[-800:]
q = lambda sql: subprocess.run(["psql", "-tA", sys.argv[1], "-c", sql], capture_output=True, text=True, check=True).stdout.strip()
assert q("SELECT count(*) FROM replies") == "1", q("SELECT count(*) FROM replies")
assert int(q("SELECT count(*) FROM trajectories")) >= 6
PY
fi

# ---- Two kgen serve instances sharing the store; one drains on SIGTERM ----
SERVE_STORE=$(db serve)
start_serve() {  # start_serve NAME: sets URL_<NAME> and PID_<NAME>
  rm -f "$T/$1.port"
  KGEN_CACHE=$T/cache-$1 "$KGEN" serve --port 0 --port-file "$T/$1.port" --workers 1 --store "$SERVE_STORE" \
    --work "$T/work-$1" --drain-timeout 120 >"$T/$1.log" 2>&1 &
  PIDS+=($!)
  disown $!
  eval "PID_$1=$!"
  for _ in $(seq 1 200); do [ -s "$T/$1.port" ] && break; sleep 0.05; done
  eval "URL_$1=http://127.0.0.1:$(cat "$T/$1.port" 2>/dev/null)"
}
start_serve a
start_serve b
check "two kgen serve instances on one PostgreSQL store: one evaluates, the other answers from the store; the second drains" \
  $PY - "$URL_a" "$URL_b" "$PID_b" "$SRC" <<'PY'
import json, os, signal, sys, threading, time, urllib.error, urllib.request
a, b, pid_b, src = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def call(url, body=None):
    req = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=300) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())
relu = open(f"{src}/kernels/activation/relu.tile").read()
req = {"task_id": "activation/relu", "kernel_code": relu, "target": "tile", "num_correct_trials": 1}
s, x = call(f"{a}/evaluate", req)
assert s == 200 and x["correctness"] and not x.get("cached"), (s, x)
s, y = call(f"{b}/evaluate", req)
assert s == 200 and y["correctness"] and y.get("cached"), ("instance b did not reuse a's result", s, y)
assert call(f"{b}/health")[1]["store"] == "postgresql"
# Drain: an evaluation running on b, then SIGTERM: b says 503 draining, refuses new work, answers the running one.
sig = open(f"{src}/kernels/activation/sigmoid.tile").read()
out = {}
t = threading.Thread(target=lambda: out.update(r=call(f"{b}/evaluate", {"task_id": "activation/sigmoid",
                                                       "kernel_code": sig, "target": "tile", "num_correct_trials": 1})))
t.start()
for _ in range(200):
    if call(f"{b}/health")[1]["active_tasks"] == 1:
        break
    time.sleep(0.05)
os.kill(pid_b, signal.SIGTERM)
time.sleep(0.3)
s, h = call(f"{b}/health")
assert s == 503 and h["status"] == "draining", (s, h)
s, e = call(f"{b}/evaluate", req)
assert s == 503 and "draining" in e.get("error_message", json.dumps(e)), (s, e)
t.join()
s, r = out["r"]
assert s == 200 and r["correctness"], ("the running evaluation was not answered", s, r)
for _ in range(100):
    try:
        os.kill(pid_b, 0)
    except ProcessLookupError:
        break
    time.sleep(0.1)
else:
    raise AssertionError("instance b did not exit after draining")
s, z = call(f"{a}/health")
assert s == 200 and z["status"] == "healthy", (s, z)
PY
grep -q "kgen serve: draining" "$T/b.log" || bad "serve b logged its draining" "$(cat "$T/b.log")"

echo "scale-out test: $fails failure(s)"
exit $((fails > 0))
