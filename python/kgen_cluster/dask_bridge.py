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

The functions the workers run are defined in this file, which runs as __main__, so Dask ships them by value: a worker
needs Python with `distributed` and a kgen (`KGEN` in its environment, or `kgen` on its PATH), nothing of kgen's Python.
"""
import argparse
import json
import os
import sys
import threading

MAX_CANDIDATE_BYTES = 64 << 20   # an op project larger than this is refused here, before it is shipped


def read_tree(path):
    """A candidate as {relative path: bytes} (a folder's regular files; links refused, as kgen's evaluator does)."""
    if os.path.isfile(path):
        with open(path, "rb") as f:
            return {"": f.read()}
    files, total = {}, 0
    for d, dirs, names in os.walk(path):
        dirs.sort()
        for n in sorted(names):
            p = os.path.join(d, n)
            if os.path.islink(p):
                raise ValueError(f"{p}: a link (a candidate folder holds regular files only)")
            with open(p, "rb") as f:
                data = f.read()
            total += len(data)
            if total > MAX_CANDIDATE_BYTES:
                raise ValueError(f"{path}: more than {MAX_CANDIDATE_BYTES >> 20} MiB of files")
            files[os.path.relpath(p, path)] = data
    return files


def worker_kgen():
    """The worker's kgen: $KGEN, else `kgen` on PATH."""
    import shutil
    k = os.environ.get("KGEN") or shutil.which("kgen")
    if not k or not os.access(k, os.X_OK):
        raise RuntimeError("no kgen on this worker: set KGEN=/path/to/kgen in the worker's environment or put kgen "
                           "on its PATH")
    return k


def check_worker(want_version):
    """Run on every worker before any work: its kgen, its version, its sandbox. {"ok", "why", "version", "host"}."""
    import socket
    import subprocess
    out = {"host": socket.gethostname(), "ok": False, "why": "", "version": ""}
    try:
        k = worker_kgen()
        v = subprocess.run([k, "--version"], capture_output=True, text=True, timeout=60)
        out["version"] = v.stdout.strip()
        if out["version"] != want_version:
            out["why"] = (f"the worker's kgen ({k}) is '{out['version'] or v.stderr.strip()}', the bench's is "
                          f"'{want_version}': results would differ; install the same kgen on the worker")
            return out
        s = subprocess.run([k, "sandbox", "check"], capture_output=True, text=True, timeout=120)
        if s.returncode != 0:
            why = (s.stdout + s.stderr).strip().splitlines()
            out["why"] = "`kgen sandbox check` fails on the worker: " + (why[-1] if why else f"exit {s.returncode}")
            return out
        out["ok"] = True
    except Exception as e:   # noqa: BLE001 - reported to the bench as this worker's refusal
        out["why"] = f"{type(e).__name__}: {e}"
    return out


def evaluate_on_worker(job):
    """One evaluation on a worker: the shipped files under a folder named by their content in the worker's kgen cache
    (so that evaluating the same candidate again reuses its compiled libraries, as a local run does), then
    `kgen cluster worker-eval`."""
    import hashlib
    import shutil
    import subprocess
    import tempfile
    k = worker_kgen()
    h = hashlib.sha256()
    for part in (job["task_rel"].encode(), job["task_bytes"], job["candidate_name"].encode()):
        h.update(len(part).to_bytes(8, "little") + part)
    for rel in sorted(job["candidate_files"]):
        h.update(len(rel).to_bytes(8, "little") + rel.encode() + len(job["candidate_files"][rel]).to_bytes(8, "little"))
        h.update(job["candidate_files"][rel])
    cache = os.environ.get("KGEN_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "kgen")
    root = os.path.join(cache, "cluster-jobs")
    d = os.path.join(root, h.hexdigest()[:32])
    if not os.path.isdir(d):
        os.makedirs(root, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=".job-", dir=root)
        task = os.path.join(tmp, "task", job["task_rel"])
        os.makedirs(os.path.dirname(task), exist_ok=True)
        with open(task, "wb") as f:
            f.write(job["task_bytes"])
        cand = os.path.join(tmp, "candidate", job["candidate_name"])
        for rel, data in job["candidate_files"].items():
            p = os.path.join(cand, rel) if rel else cand
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "wb") as f:
                f.write(data)
        if not job["candidate_files"]:
            os.makedirs(cand, exist_ok=True)
        try:
            os.rename(tmp, d)   # whole or not at all; a twin that got there first wins
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
    req = json.dumps({"task": os.path.join(d, "task", job["task_rel"]),
                      "candidate": os.path.join(d, "candidate", job["candidate_name"]), "options": job["options"]})
    p = subprocess.run([k, "cluster", "worker-eval"], input=req, capture_output=True, text=True,
                       timeout=job["timeout_s"])
    if p.returncode != 0:
        raise RuntimeError(f"kgen cluster worker-eval exited {p.returncode}: {p.stderr.strip()[-2000:]}")
    try:
        from distributed import get_worker
        where = get_worker().address
    except Exception:   # noqa: BLE001 - only the report's worker column
        where = ""
    return {"result": p.stdout, "worker": where}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scheduler", required=True, help="the Dask scheduler, e.g. tcp://HOST:8786")
    ap.add_argument("--version", required=True, help="the bench's `kgen --version`")
    ap.add_argument("--connect-timeout", type=float, default=30)
    a = ap.parse_args()
    out_lock = threading.Lock()

    def say(obj):
        with out_lock:
            sys.stdout.write(json.dumps(obj) + "\n")
            sys.stdout.flush()

    try:
        from distributed import Client
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
    checks = client.run(check_worker, a.version)
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
            with open(req["task"], "rb") as f:
                task_bytes = f.read()
            job = {"task_rel": req["task_rel"], "task_bytes": task_bytes,
                   "candidate_name": os.path.basename(os.path.normpath(req["candidate"])),
                   "candidate_files": read_tree(req["candidate"]), "options": req["options"],
                   # the evaluation's own limits bound each run; this bounds the whole, builds and all cases
                   "timeout_s": max(600.0, 20 * float(req["options"].get("timeout_s", 300)))}
            with done:
                pending.add(rid)
            fut = client.submit(evaluate_on_worker, job, pure=False, workers=ok, allow_other_workers=False,
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
