#!/usr/bin/env bash
# Load on `kgen serve` as an RL trainer puts it (bounded: REQUESTS requests offered over SECONDS seconds, then it
# stops). The requests are replies (files in <file> tags) of the bundled level-1 vector candidates: a share FRESH of
# them new candidates (a new comment, so a new content hash: a full sandboxed evaluation), the rest repeats of
# candidates already answered (the results store's answer). Reports the answers per second, fresh evaluations per
# minute, p50/p95 latency of fresh and of repeated requests, the 429s, and checks that every request got exactly one
# answer, its own (uuid), and that repeats agree with the first answer.
# Usage: bench/serve_load.sh [BUILD_DIR=build] [REQUESTS=2000] [SECONDS=60] [FRESH=0.05] [WORKERS=2]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
requests="${2:-2000}"
seconds="${3:-60}"
fresh="${4:-0.05}"
workers="${5:-2}"
kgen="$(realpath "$build/kgen")"
T=$(mktemp -d /tmp/kgen-serve-load-XXXXXX)
trap 'kill "$pid" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$T"' EXIT
export KGEN_CACHE=$T/cache
"$kgen" serve --port 0 --port-file "$T/port" --workers "$workers" --trials 5 >"$T/serve.log" 2>&1 &
pid=$!
for _ in $(seq 1 200); do [ -s "$T/port" ] && break; sleep 0.05; done
url="http://127.0.0.1:$(cat "$T/port")"
echo "== kgen serve --workers $workers: $requests requests over $seconds s, $fresh of them fresh candidates"
/usr/bin/python3 - "$url" "$requests" "$seconds" "$fresh" <<'PY'
import concurrent.futures as cf, json, os, random, subprocess, sys, threading, time, urllib.error, urllib.request
url, n, span, fresh_share = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
cands = []
for cn in subprocess.run(["/usr/bin/python3", "bench/level1_vector.py"], capture_output=True, text=True,
                         check=True).stdout.split():
    d = os.path.join("candidates", cn)
    files = [(os.path.relpath(os.path.join(root, f), d), open(os.path.join(root, f)).read())
             for root, _, fs in sorted(os.walk(d)) for f in sorted(fs)]
    cands.append((cn, files))

def reply(files, tag):
    return "\n".join(f'<file path="{p}">\n{t}' + (f"\n// load {tag}" if p.endswith(".cpp") else "") + "\n</file>"
                     for p, t in files)

def post(body):
    r = urllib.request.Request(url + "/evaluate", data=json.dumps(body).encode(),
                               headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(r, timeout=900) as f:
            return f.status, json.load(f)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)

# Warm: every candidate once (its task's reference data computed, its answer in the store), not counted.
t = time.time()
with cf.ThreadPoolExecutor(8) as ex:
    warm = list(ex.map(lambda c: post({"task_id": c[0], "kernel_code": reply(c[1], "warm")}), cands))
first = {c[0]: w[1]["verdict"] for c, w in zip(cands, warm)}
print(f"warm-up: {len(cands)} candidates in {time.time() - t:.1f} s")

rng = random.Random(7)
plan = []
for i in range(n):
    task, files = rng.choice(cands)
    is_fresh = rng.random() < fresh_share
    plan.append((i, task, reply(files, f"fresh {i}" if is_fresh else "warm"), is_fresh))
answers, lock = {}, threading.Lock()
def one(item):
    i, task, code, is_fresh = item
    t0 = time.perf_counter()
    s, j = post({"task_id": task, "kernel_code": code, "uuid": f"r{i}"})
    with lock:
        if i in answers:
            raise RuntimeError(f"request {i} answered twice")
        answers[i] = (s, j, time.perf_counter() - t0, is_fresh, task)
t0 = time.time()
with cf.ThreadPoolExecutor(256) as ex:
    futs = []
    for k, item in enumerate(plan):   # offered at a steady rate: n requests over span seconds
        delay = t0 + k * span / n - time.time()
        if delay > 0:
            time.sleep(delay)
        futs.append(ex.submit(one, item))
    for f in futs:
        f.result()
wall = time.time() - t0
ok = {i: a for i, a in answers.items() if a[0] == 200}
lost = n - len(answers)
crossed = sum(a[1].get("uuid") != f"r{i}" for i, a in ok.items())
disagree = sum(a[1]["verdict"] != first[a[4]] for a in ok.values())
busy = sum(a[0] == 429 for a in answers.values())
other = sum(a[0] not in (200, 429) for a in answers.values())
def q(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p * (len(v) - 1) + 0.5))] * 1000 if v else float("nan")
fl = [a[2] for a in ok.values() if a[3]]
rl = [a[2] for a in ok.values() if not a[3]]
cached = sum(a[1]["cached"] for a in ok.values() if not a[3])
print(f"{len(answers)} answered in {wall:.1f} s: {len(answers) / wall:.1f} answers/s; {len(ok)} evaluated or from "
      f"the store, {busy} refused (429), {other} other statuses")
print(f"fresh candidates: {len(fl)} evaluated, {len(fl) / wall * 60:.1f} per minute; latency p50 {q(fl, .5):.0f} ms, "
      f"p95 {q(fl, .95):.0f} ms")
print(f"repeated candidates: {len(rl)} answered ({cached} from the store); latency p50 {q(rl, .5):.1f} ms, "
      f"p95 {q(rl, .95):.1f} ms (target: store answers under 10 ms)")
print(f"lost {lost}, duplicated 0 (checked), crossed {crossed}, repeats disagreeing with the first verdict {disagree}")
sys.exit(1 if lost or crossed or disagree or other else 0)
PY
curl -sf "$url/metrics" | grep -E "^kgen_serve_(latency|cached_total|evaluations_total)" | head -12
