"""Evaluations as plain data, for any task engine (docs/scale-out.md): `kgen bench --cluster` ships them to Dask
workers (python/kgen_cluster/dask_bridge.py), and the same three functions run on Ray (or anything that calls a Python
function on another machine):

    job = pack_job(task_path, "activation/relu.py", candidate_path, options)   # on the driver: files read here
    check_worker("kgen 0.1.0")   # on a worker: its kgen, its version, its sandbox -> {"ok", "why", ...}
    out = run_job(job)           # on a worker: its own kgen evaluates, in its own sandbox
    result = json.loads(out["result"])   # the EvalResult, as `kgen eval --json` / results.json write it

A worker needs kgen (`KGEN=/path/to/kgen` in its environment, or `kgen` on its PATH) and nothing else of kgen's
Python: Dask ships this module by value. `options` are kgen's evaluation settings as JSON (eval/options_json.h):
{"trials": 5, "secret_trials": 1, "soc": "Ascend910B2", ...}; fields left out take kgen's defaults.
"""
import json
import os

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


def pack_job(task, task_rel, candidate, options=None, timeout_s=None):
    """One evaluation as data: the task file's bytes under its path in the suite (task_rel, e.g. "activation/relu.py":
    the folder names the category), the candidate's files, the settings. The files are read now, on this machine."""
    options = dict(options or {})
    with open(task, "rb") as f:
        task_bytes = f.read()
    return {"task_rel": task_rel, "task_bytes": task_bytes,
            "candidate_name": os.path.basename(os.path.normpath(candidate)), "candidate_files": read_tree(candidate),
            "options": options,
            # each run of the evaluation has its own limit (options timeout_s); this bounds the whole
            "timeout_s": timeout_s or max(600.0, 20 * float(options.get("timeout_s", 300)))}


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


def run_job(job):
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
