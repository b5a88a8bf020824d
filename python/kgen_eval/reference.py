"""Reference data of one task for `kgen eval`: per (case, trial), a directory of .npy files the candidate runs on,
the reference outputs, the Model's init values and the eager aten trace of the forward.

Usage: /usr/bin/python3 reference.py TASK.py --cache ROOT [--seed N] [--trials N] [--version V] [--case NAME ...]
                                   [--seeding kgen|mkb] [--secret-seed S --secret-trials N --secret-cache DIR]
                                   [--perf]
Prints one JSON object on stdout: {"task_id", "category", "level", "cases": [{"name", "trials": [DIR, ...],
"secret_trials": [DIR, ...]}]}. Secret trials are further trials from a seed the evaluator draws per run (a candidate
cannot have memorised their outputs); they go under --secret-cache, which the evaluator deletes after the run, and
carry no trace.json. With --perf and a PERF in the task, "perf": {"name", "dir"} is the perf shape's directory
(make_perf: shapes, the init values and the eager trace at the real size from FakeTensors; integer inputs saved).
       /usr/bin/python3 reference.py --prefetch TASK.py ... --cache ROOT [--seed N] [--trials N] [--version V] [--jobs N]
fills the cache for many tasks with torch imported once (a forked child per task; `kgen bench` runs it first).
On a task failure: exit 2 with `error[task] FILE:LINE: message` on stderr.

Layout of one trial directory ROOT/ref/<key>/, key = sha256(task file content, case name, trial, seed, version):
  input_000.npy ...   the candidate's inputs, in this order (the op-project mapping to OpDef inputs, in order):
                      1. the forward inputs (get_inputs()) that are tensors, in order;
                      2. then the Model's parameters and buffers in state_dict() order (named in meta.json).
                      Non-tensor forward arguments are not inputs; they are listed in meta.json "forward_scalars".
  output_000.npy ...  the reference outputs (a tuple/list output flattened in order), by run_reference (tasks.py):
                      fp16/bf16 cases are computed in float32 and rounded once to the case's dtype.
  attrs.json          {"names": Model.__init__ parameter names (inspect.signature, without self),
                       "values": get_init_inputs() values (JSON; torch dtypes as "torch.float16")}
  trace.json          the aten ops of one forward (scripts/aten_trace.py's Recorder; FakeTensors, CPU fallback)
  meta.json           {"inputs": [{"file", "name", "kind": "input"|"parameter"|"buffer", "shape", "dtype"}],
                       "outputs": [{"file", "shape", "dtype"}], "forward_scalars": [...], "case", "trial", "seed"}
bfloat16 tensors travel as uint16 .npy files holding the raw bits (src/op/npy.h's convention); meta.json says bfloat16.
Seeds (--seeding kgen): the Model (its parameters) is built with torch.manual_seed(seed) in every trial (make_model),
the inputs of trial t come from get_inputs() after torch.manual_seed(seed + t) (load_case): fresh inputs per trial and
per case. --seeding mkb (MultiKernelBench submissions, whose ModelNew builds its own parameters): torch.manual_seed(
seed), Model(*get_init_inputs()), then trial t's inputs are the (t+1)-th call of get_inputs(), as MultiKernelBench's
correctness loop draws them (except that there ModelNew is built with the same seed before the inputs are drawn, so
its inputs depend on the candidate; here they do not). Only the forward inputs are written (no parameters).
The directory is written under a temporary name and renamed into place (atomic; concurrent runs are safe).
"""
from __future__ import annotations

import hashlib
import inspect
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from kgen_eval import tasks as T  # noqa: E402


def load_task(path: str) -> T.Task:
    """One task file: id <folder>/<stem>, category from the folder (or from the name), level from LEVEL or folder."""
    path = os.path.abspath(path)
    folder = os.path.basename(os.path.dirname(path))
    stem = os.path.splitext(os.path.basename(path))[0]
    jpath = path[:-3] + ".json"
    if folder.startswith("npukernelbench_level") and os.path.isfile(jpath):
        t = T.Task(f"{folder}/{stem}", T.category_from_name(stem, 1), int(folder[len("npukernelbench_level"):] or 1),
                   path, "NPUKernelBench")
        T._parse_npukb(path, t)
        return t
    cat = folder if folder in T.CATEGORIES else T.category_from_name(stem, 1)
    t = T.Task(f"{cat}/{stem}", cat, 2 if cat == "fuse" else 3 if cat == "arch" else 1, path, "kgen")
    T._parse_kgen_like(path, t, need_level=True)
    return t


def key_of(content: bytes, case: str, trial: int, seed: int, version: str, seeding: str = "kgen",
           trace: bool = True) -> str:
    h = hashlib.sha256()
    parts = [content, case.encode(), str(trial).encode(), str(seed).encode(), version.encode()]
    if seeding != "kgen" or not trace:
        parts.append(f"{seeding}/{'trace' if trace else 'notrace'}".encode())
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()[:32]


def _jsonable(v):
    import torch
    if isinstance(v, torch.dtype):
        return str(v)
    if isinstance(v, torch.Tensor):
        return v.tolist()
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (int, float, str, bool)) or v is None:
        return v
    return repr(v)


def _save(path: str, t) -> dict:
    import numpy as np
    import torch
    t = t.detach().cpu().contiguous()
    dt = str(t.dtype).replace("torch.", "")
    if t.dtype == torch.bfloat16:
        arr = t.view(torch.int16).numpy().view(np.uint16)
    else:
        arr = t.numpy()
    np.save(path, arr)
    return {"file": os.path.basename(path), "shape": list(t.shape), "dtype": dt}


def _trace(ns: dict, seed: int) -> str:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts"))
    import aten_trace
    import types
    import torch
    mod = types.SimpleNamespace(Model=ns["Model"], get_inputs=ns["get_inputs"], get_init_inputs=ns["get_init_inputs"])
    mode = "fake"
    try:
        ops = aten_trace.record(mod, seed, fake=True)
    except Exception:  # noqa: BLE001 - no fake support: run for real
        mode = "cpu"
        ops = aten_trace.record(mod, seed, fake=False)
    return json.dumps({"task": ns.get("__file__", ""), "torch": torch.__version__, "mode": mode, "ops": ops})


def make_trial(task: T.Task, case: T.Case, trial: int, seed: int, dest: str, seeding: str = "kgen",
               trace: bool = True):
    import torch
    ns = T._module_namespace(task, case.overrides)
    if seeding == "mkb":
        cls = ns["Model"]
        init = list(ns["get_init_inputs"]()) if "get_init_inputs" in ns else []
        model = T.make_model(cls, init, seed)
        for _ in range(trial + 1):
            inputs = list(ns["get_inputs"]())
    else:
        cls, init, inputs = T.load_case(task, case, seed + trial)
        model = T.make_model(cls, init, seed)
    out, _ = T.run_reference(model, inputs)
    parent = os.path.dirname(dest)
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".tmp-", dir=parent)
    meta = {"case": case.name, "trial": trial, "seed": seed, "inputs": [], "outputs": [], "forward_scalars": []}
    k = 0
    for i, t in enumerate(inputs):
        if isinstance(t, torch.Tensor):
            d = _save(os.path.join(tmp, f"input_{k:03d}.npy"), t)
            d.update(name=f"input{i}", kind="input")
            meta["inputs"].append(d)
            k += 1
        else:
            meta["forward_scalars"].append({"index": i, "value": _jsonable(t)})
    bufs = {n for n, _ in model.named_buffers()}
    for name, t in (model.state_dict().items() if seeding == "kgen" else []):
        d = _save(os.path.join(tmp, f"input_{k:03d}.npy"), t)
        d.update(name=name, kind="buffer" if name in bufs else "parameter")
        meta["inputs"].append(d)
        k += 1
    for j, (_, o) in enumerate(T._flatten(out)):
        if not isinstance(o, torch.Tensor):
            o = torch.tensor(o)
        meta["outputs"].append(_save(os.path.join(tmp, f"output_{j:03d}.npy"), o))
    _write_attrs(tmp, cls, init)
    if trace:
        with open(os.path.join(tmp, "trace.json"), "w") as f:
            f.write(_trace(ns, seed))
    _finish(tmp, meta, dest)


def _write_attrs(tmp: str, cls, init):
    """attrs.json: Model.__init__'s parameter names and the init values."""
    try:
        names = [p for p in inspect.signature(cls.__init__).parameters if p != "self"]
    except (TypeError, ValueError):
        names = []
    with open(os.path.join(tmp, "attrs.json"), "w") as f:
        json.dump({"names": names, "values": _jsonable(init)}, f)


def _finish(tmp: str, meta: dict, dest: str):
    """meta.json last, then the folder renamed into place (atomic: a reader sees all of it or nothing)."""
    with open(os.path.join(tmp, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    try:
        os.rename(tmp, dest)
    except OSError:  # another run put it there first
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)


def make_perf(task: T.Task, seed: int, dest: str, max_data_bytes: int = 1 << 30):
    """The perf shape (the task's PERF overrides on its default case): shapes and dtypes of the inputs (in the order
    of make_trial's), of the outputs, the init values and the eager aten trace, all from one forward on FakeTensors.
    Floating-point tensors travel as shapes only (a timing-only run computes no values); integer and bool tensors
    (indices, masks, lengths: they decide addresses and loop counts) are drawn for real and saved. A perf shape that
    cannot be made says why in meta.json "skipped"."""
    import torch
    case = T.Case(T._case_name(task.perf), dict(task.perf))
    ns = T._module_namespace(task, case.overrides)
    cls = ns["Model"]
    torch.manual_seed(seed)
    init = list(ns["get_init_inputs"]()) if "get_init_inputs" in ns else []
    model = T.make_model(cls, init, seed)   # real parameters: weights are small next to the activations
    meta = {"case": case.name, "perf": True, "seed": seed, "inputs": [], "outputs": [], "forward_scalars": []}
    parent = os.path.dirname(dest)
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".tmp-", dir=parent)
    try:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts"))
        import aten_trace
        rec = aten_trace.Recorder()
        inputs, out = T.fake_forward(ns, model, seed, rec)
        ops = rec.ops
    except Exception as e:  # noqa: BLE001 - data-dependent shapes, ops without fake-tensor support
        inputs, out, ops = None, None, None
        meta["skipped"] = (f"the forward does not run on FakeTensors at the perf shape ({type(e).__name__}: "
                           f"{str(e)[:200]})")
    if inputs is not None:
        def desc(t):
            return {"shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", "")}
        needs_data = []
        for i, t in enumerate(inputs):
            if isinstance(t, torch.Tensor):
                d = desc(t)
                d.update(name=f"input{i}", kind="input")
                if not (t.is_floating_point() or t.is_complex()):
                    needs_data.append((len(meta["inputs"]), i))
                meta["inputs"].append(d)
            else:
                meta["forward_scalars"].append({"index": i, "value": _jsonable(t)})
        bufs = {n for n, _ in model.named_buffers()}
        for name, t in model.state_dict().items():
            d = desc(t)
            d.update(name=name, kind="buffer" if name in bufs else "parameter")
            if not (t.is_floating_point() or t.is_complex()):
                d.update(_save(os.path.join(tmp, f"input_{len(meta['inputs']):03d}.npy"), t))
            meta["inputs"].append(d)
        if needs_data:
            total = sum(t.numel() * t.element_size() for t in inputs if isinstance(t, torch.Tensor))
            if total > max_data_bytes:
                meta["skipped"] = (f"the integer inputs decide addresses, so they need their values, and drawing the "
                                   f"perf shape's inputs takes {total / 2**30:.1f} GiB (limit {max_data_bytes / 2**30:.0f})")
            else:
                torch.manual_seed(seed)
                real = list(ns["get_inputs"]())
                for k, i in needs_data:
                    meta["inputs"][k].update(_save(os.path.join(tmp, f"input_{k:03d}.npy"), real[i]))
        for _, o in T._flatten(out):
            if isinstance(o, torch.Tensor):
                meta["outputs"].append(desc(o))
        _write_attrs(tmp, cls, init)
        with open(os.path.join(tmp, "trace.json"), "w") as f:
            json.dump({"task": task.path, "torch": torch.__version__, "mode": "fake", "ops": ops}, f)
    _finish(tmp, meta, dest)


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(prog="reference.py")
    ap.add_argument("task")
    ap.add_argument("--cache", required=True)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--version", default="")
    ap.add_argument("--case", action="append", default=[])
    ap.add_argument("--seeding", choices=("kgen", "mkb"), default="kgen")
    ap.add_argument("--secret-seed", type=int, default=None)
    ap.add_argument("--secret-trials", type=int, default=0)
    ap.add_argument("--secret-cache", default=None)
    ap.add_argument("--perf", action="store_true")
    a = ap.parse_args(argv)
    try:
        with open(a.task, "rb") as f:
            content = f.read()
    except OSError as e:
        print(f"error[task] {a.task}:1: cannot read the task: {e.strerror}", file=sys.stderr)
        return 2
    task = load_task(a.task)
    if not task.cases:
        print(f"error[task] {a.task}:1: no cases ({'; '.join(task.problems)})", file=sys.stderr)
        return 2
    with open(a.task, encoding="utf-8", errors="replace") as f:
        has_level = any(ln.startswith("LEVEL") for ln in f)
    if not has_level:   # MultiKernelBench/KernelBench files: the level follows the category
        task.level = 2 if task.category == "fuse" else 3 if task.category == "arch" else 1
    if not has_level and task.peer:
        T.peer_check_case(task)   # its own sizes, scaled for the check when large; timed at its own (task.perf)
    doc = {"task_id": task.id, "category": task.category, "level": task.level, "cases": []}
    cases = [c for c in task.cases if not a.case or c.name in a.case]
    imported = False
    groups = [("trials", a.cache, a.seed, a.trials, True)]
    if a.secret_trials > 0 and a.secret_seed is not None:
        groups.append(("secret_trials", a.secret_cache or a.cache, a.secret_seed, a.secret_trials, False))
    for c in cases:
        entry = {"name": c.name}
        if c.name == "default" and task.check_note:
            entry["note"] = task.check_note
        for field, root, seed, trials, trace in groups:
            dirs = []
            for t in range(trials):
                dest = os.path.join(root, "ref", key_of(content, c.name, t, seed, a.version, a.seeding, trace))
                if not os.path.isfile(os.path.join(dest, "meta.json")):
                    if not imported:
                        import torch
                        torch.set_num_threads(1)
                        imported = True
                    try:
                        make_trial(task, c, t, seed, dest, a.seeding, trace)
                    except Exception as e:  # noqa: BLE001 - a task file can raise anything
                        print(f"error[task] {T._where(task, e)}: case {c.name}, trial {t}: the reference failed: "
                              f"{type(e).__name__}: {e}", file=sys.stderr)
                        return 2
                dirs.append(dest)
            entry[field] = dirs
        doc["cases"].append(entry)
    if a.perf and task.perf is not None:
        dest = perf_dir(a.cache, content, task, a.seed, a.version)
        if not os.path.isfile(os.path.join(dest, "meta.json")):
            if not imported:
                import torch
                torch.set_num_threads(1)
            try:
                make_perf(task, a.seed, dest)
            except Exception as e:  # noqa: BLE001 - a task file can raise anything
                print(f"error[task] {T._where(task, e)}: the perf shape {T._case_name(task.perf)}: the reference "
                      f"failed: {type(e).__name__}: {e}", file=sys.stderr)
                return 2
        doc["perf"] = {"name": T._case_name(task.perf), "dir": dest}
    print(json.dumps(doc))
    return 0


def perf_dir(cache: str, content: bytes, task: T.Task, seed: int, version: str) -> str:
    """The cache directory of the task's perf shape (make_perf)."""
    return os.path.join(cache, "ref", key_of(content, "perf:" + T._case_name(task.perf), 0, seed, version))


def _read(task_path: str):
    """(file content, Task), or None when the file cannot be read or parsed (main() reports it)."""
    try:
        with open(task_path, "rb") as f:
            return f.read(), load_task(task_path)
    except Exception:  # noqa: BLE001 - main() reports it when the task is evaluated
        return None


def _missing(task_path: str, cache: str, seed: int, trials: int, version: str, seeding: str = "kgen",
             trace: bool = True) -> bool:
    """Whether some (case, trial) of the task has no reference directory yet (without importing torch)."""
    got = _read(task_path)
    if got is None:
        return False
    content, task = got
    return any(not os.path.isfile(os.path.join(cache, "ref", key_of(content, c.name, t, seed, version, seeding, trace),
                                               "meta.json"))
               for c in task.cases for t in range(trials))


def _perf_missing(task_path: str, cache: str, seed: int, version: str) -> bool:
    """Whether the task has a PERF whose reference directory is not there yet."""
    got = _read(task_path)
    return got is not None and got[1].perf is not None and not os.path.isfile(
        os.path.join(perf_dir(cache, got[0], got[1], seed, version), "meta.json"))


def prefetch(argv) -> int:
    """Fills the cache for many tasks with torch imported once: each task runs main() in a forked child (fresh
    process state per task, as a separate run would have), up to --jobs at a time. Saves the ~1.5 s import per
    task of `kgen bench`. Output and errors are discarded: a task that fails here fails again, with its message,
    when it is evaluated. Prints `prefetched N of M tasks (F failed)`."""
    import argparse
    import signal
    import time
    ap = argparse.ArgumentParser(prog="reference.py --prefetch")
    ap.add_argument("tasks", nargs="*")
    ap.add_argument("--cache", required=True)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--version", default="")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=1200)
    ap.add_argument("--secret-seed", type=int, default=None)
    ap.add_argument("--secret-trials", type=int, default=0)
    ap.add_argument("--secret-cache", default=None)
    ap.add_argument("--perf", action="store_true")
    a = ap.parse_args(argv)
    secret = a.secret_trials > 0 and a.secret_seed is not None
    todo = [t for t in a.tasks if _missing(t, a.cache, a.seed, a.trials, a.version) or
            (a.perf and _perf_missing(t, a.cache, a.seed, a.version)) or
            (secret and _missing(t, a.secret_cache or a.cache, a.secret_seed, a.secret_trials, a.version, "kgen",
                                 False))]
    if todo:
        import torch  # noqa: F401 - the import the children share
        import numpy  # noqa: F401
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts"))
        import aten_trace  # noqa: F401
    running = {}   # pid -> start time
    failed = 0
    queue = list(todo)
    while queue or running:
        while queue and len(running) < max(1, a.jobs):
            t = queue.pop(0)
            pid = os.fork()
            if pid == 0:
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, 1)
                os.dup2(null, 2)
                try:
                    extra = ["--secret-seed", str(a.secret_seed), "--secret-trials", str(a.secret_trials),
                             "--secret-cache", a.secret_cache or a.cache] if secret else []
                    rc = main([t, "--cache", a.cache, "--seed", str(a.seed), "--trials", str(a.trials),
                               "--version", a.version] + extra + (["--perf"] if a.perf else []))
                except BaseException:  # noqa: BLE001 - a child never returns into the loop
                    rc = 2
                os._exit(rc)
            running[pid] = time.monotonic()
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            now = time.monotonic()
            for p, t0 in running.items():
                if now - t0 > a.timeout:
                    os.kill(p, signal.SIGKILL)
            time.sleep(0.02)
            continue
        if pid in running:
            del running[pid]
            failed += status != 0
    print(f"prefetched {len(todo) - failed} of {len(a.tasks)} tasks ({failed} failed)")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--prefetch"]:
        sys.exit(prefetch(sys.argv[2:]))
    sys.exit(main(sys.argv[1:]))
