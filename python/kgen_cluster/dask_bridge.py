#!/usr/bin/python3
"""The bridge between `kgen bench --cluster ADDRESS` and a Dask cluster (docs/scale-out.md).

kgen (C++) starts this script and talks to it in JSON lines:
  stdin   {"id": N, "task": PATH, "task_rel": "category/name.py", "candidate": PATH, "options": {...}}
          (an empty line or EOF: no more work; the bridge exits once every answer is written)
  stdout  first {"ready": true, "scheduler": ADDR, "workers": [{"address", "host", "nthreads"}], "threads": N,
                 "refused": [{"address", "why"}]}   or {"error": "..."} and exit 1;
          then one {"id": N, "result": {EvalResult}, "worker": ADDR} or {"id": N, "error": "..."} per request,
          in the order they finish.
Each request's task file and candidate (a file, or an op project folder) are read here and shipped with the Dask task;
the worker writes them, with the same names, under a folder of its kgen cache named by their content (a candidate
evaluated again reuses its compiled libraries) and runs its own `kgen cluster worker-eval` (the worker's kgen, in the
worker's sandbox). Workers are checked first (their kgen's version must equal the bench's, and
`kgen sandbox check` must pass); the work goes only to workers that passed. A worker that dies mid-evaluation loses
nothing: the scheduler runs its tasks again elsewhere.

The functions the workers run are kgen.cluster's (python/kgen/cluster.py, the same ones a Ray recipe calls), registered
with cloudpickle to travel by value: a worker needs Python with `distributed` and a kgen (`KGEN` in its environment, or
`kgen` on its PATH), nothing of kgen's Python.
"""
import argparse
import json
import os
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import kgen.cluster as jobs  # noqa: E402 - the job functions, shipped to the workers by value (below)

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scheduler", required=True, help="the Dask scheduler, e.g. tcp://HOST:8786")
    ap.add_argument("--version", required=True, help="the bench's `kgen --version`")
    ap.add_argument("--connect-timeout", type=float, default=10)
    a = ap.parse_args()
    out_lock = threading.Lock()

    def say(obj):
        with out_lock:
            sys.stdout.write(json.dumps(obj) + "\n")
            sys.stdout.flush()

    try:
        import cloudpickle
        from distributed import Client
        cloudpickle.register_pickle_by_value(jobs)
    except ImportError:
        say({"error": "the Dask client is not installed here (Debian: apt-get install python3-distributed)"})
        return 1
    try:
        client = Client(a.scheduler, timeout=a.connect_timeout, set_as_default=False)
    except Exception as e:   # noqa: BLE001
        say({"error": f"cannot reach the Dask scheduler at {a.scheduler}: {type(e).__name__}: {e}"})
        return 1
    info = client.scheduler_info()["workers"]
    if not info:
        say({"error": f"the Dask scheduler at {a.scheduler} has no workers (start some: dask-worker {a.scheduler})"})
        return 1
    checks = client.run(jobs.check_worker, a.version)
    ok = sorted(w for w, c in checks.items() if c["ok"])
    refused = [{"address": w, "host": c["host"], "why": c["why"]} for w, c in sorted(checks.items()) if not c["ok"]]
    workers = [{"address": w, "host": checks[w]["host"], "nthreads": info[w]["nthreads"]} for w in ok if w in info]
    if not workers:
        say({"error": f"no worker of {a.scheduler} can evaluate: " +
             "; ".join(f"{r['address']} ({r['host']}): {r['why']}" for r in refused), "refused": refused})
        return 1
    say({"ready": True, "scheduler": a.scheduler, "workers": workers, "refused": refused,
         "threads": sum(w["nthreads"] for w in workers)})

    pending = set()
    done = threading.Condition()

    def finished(fut, rid):
        try:
            got = fut.result()
            say({"id": rid, "result": json.loads(got["result"]), "worker": got["worker"]})
        except Exception as e:   # noqa: BLE001 - the evaluation's failure goes back to the bench
            say({"id": rid, "error": f"{type(e).__name__}: {e}"})
        with done:
            pending.discard(rid)
            done.notify_all()

    for line in sys.stdin:
        line = line.strip()
        if not line:
            break
        rid = None
        try:
            req = json.loads(line)
            rid = req["id"]
            job = jobs.pack_job(req["task"], req["task_rel"], req["candidate"], req["options"])
            with done:
                pending.add(rid)
            fut = client.submit(jobs.run_job, job, pure=False, workers=ok, allow_other_workers=False,
                                key=f"kgen-eval-{os.getpid()}-{rid}")
            # callbacks run on the client's event loop: the answer is written from a thread of its own
            fut.add_done_callback(lambda f, rid=rid: threading.Thread(target=finished, args=(f, rid)).start())
        except Exception as e:   # noqa: BLE001
            say({"id": rid, "error": f"cannot send the evaluation: {type(e).__name__}: {e}"})
    with done:
        while pending:
            done.wait()
    client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
