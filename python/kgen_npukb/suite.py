"""An NPUKernelBench checkout's task tree as a kgen suite (read by python/kgen_eval/tasks.py).

Layout, unchanged: ROOT/levelN/<Category>/<Op>/ with validation/{module.py, prepare_inputs.py, test_cases.csv,
pybind.cpp}, api_desc.md (the operator's description, which NPUKernelBench's prompts are built from) and answer/<k>/
(the benchmark's own op projects). ROOT is the checkout's tasks/ folder or the checkout itself. A task's id is
<Category>/<Op> (op names are unique over the levels), its level N, its cases the rows of test_cases.csv.

check() runs every case's reference on the CPU as the trusted side of an evaluation does (reference.py ref): inputs
made, Model's forward run, outputs finite and the same from a second model. Unlike kgen's own tasks, sizes and in-place
forwards are the benchmark's and are not problems.
"""
import copy
import os
import re
import time

from kgen_npukb.task import Task as FolderTask, TaskError, is_task

DTYPE_NAMES = ("float16", "float32", "bfloat16", "float64", "int8", "uint8", "int16", "int32", "int64", "bool",
               "complex64", "complex128", "uint16", "uint32", "uint64")


def root_of(folder):
    """The folder holding levelN/<Category>/<Op>/ task folders: folder itself or its tasks/, else None."""
    for base in (folder, os.path.join(folder, "tasks")):
        for level in _levels(base):
            for cat in _subdirs(os.path.join(base, level)):
                if any(is_task(os.path.join(base, level, cat, op)) for op in _subdirs(os.path.join(base, level, cat))):
                    return base
    return None


def _subdirs(folder):
    try:
        return sorted(d for d in os.listdir(folder)
                      if not d.startswith((".", "_")) and os.path.isdir(os.path.join(folder, d)))
    except OSError:
        return []


def _levels(base):
    return [d for d in _subdirs(base) if re.fullmatch(r"level\d+", d)]


def task_folders(root):
    """(level, category, op, path) of every task folder under root, sorted by category then op."""
    out = []
    for level in _levels(root):
        for cat in _subdirs(os.path.join(root, level)):
            for op in _subdirs(os.path.join(root, level, cat)):
                out.append((int(level[5:]), cat, op, os.path.join(root, level, cat, op)))
    return sorted(out, key=lambda t: (t[1], t[2]))


def case_name(i, row):
    """The name kgen gives a case in results (eval_npukb.cpp builds the same): '#0 shape=[4, 3] dtype=float16'."""
    return f"#{i}" + "".join(f" {k}={v}" for k, v in row.items() if k != "case_id")


def describe(path):
    """(cases, dtypes, problems) of one task folder without running anything: cases [(name, row)] from
    test_cases.csv, the dtype names its rows mention, problems as 'file:line: message'."""
    problems = []
    if not is_task(path):
        return [], [], [f"{path}:1: not an NPUKernelBench task folder: validation/module.py and "
                        "validation/test_cases.csv are missing"]
    try:
        t = FolderTask(path)
    except TaskError as e:
        return [], [], [str(e)]
    for f, why in (("validation/pybind.cpp", "the binding ModelNew calls the op through"),
                   ("api_desc.md", "the operator's description, which generation prompts are built from")):
        if not os.path.isfile(os.path.join(path, f)):
            problems.append(f"{path}/{f}:1: missing: {why}")
    if not os.path.isfile(t.prepare_path):
        with open(t.module_path, encoding="utf-8", errors="replace") as fh:
            if not re.search(r"^def get_init_inputs\b", fh.read(), re.M):
                problems.append(f"{t.module_path}:1: no get_init_inputs here and no validation/prepare_inputs.py")
    dtypes = []
    for row in t.rows:
        for v in row.values():
            for d in re.findall(r"[a-z]+\d+|bool", str(v)):
                if d in DTYPE_NAMES and d not in dtypes:
                    dtypes.append(d)
    return [(case_name(i, r), r) for i, r in enumerate(t.rows)], dtypes, problems


def check(path, seed=1024):
    """Every case's reference on the CPU. Returns (cases, problems): cases [{name, forward_s, input_bytes, outputs,
    upcast}], problems 'file:line: message' (a case whose inputs or forward fail here is one)."""
    import torch
    from kgen_npukb import reference as R
    R.prepare_env()
    t = FolderTask(path)
    module, prep = t.load_modules()
    cases, problems = [], []
    for i, row in enumerate(t.rows):
        c = {"name": case_name(i, row), "forward_s": None, "input_bytes": 0, "outputs": [], "upcast": False}
        cases.append(c)
        try:
            torch.manual_seed(seed + i)
            init, inputs = R.case_inputs(prep, row)
        except Exception as e:  # noqa: BLE001 - a task's own code can raise anything
            problems.append(f"{R._where(e, t)}: case {i}: its inputs cannot be made on the CPU "
                            f"({type(e).__name__}: {str(e)[:200]}); kgen fails this case for every candidate")
            continue
        for x in _tensors(inputs):
            c["input_bytes"] += x.numel() * x.element_size()
        try:
            t0 = time.perf_counter()
            out1, c["upcast"] = R._forward(module.Model(*copy.deepcopy(init)), inputs)
            c["forward_s"] = time.perf_counter() - t0
            torch.manual_seed(seed + i + 1)   # a forward that draws random numbers gives another output
            out2, _ = R._forward(module.Model(*copy.deepcopy(init)), inputs)
        except Exception as e:  # noqa: BLE001
            problems.append(f"{R._where(e, t)}: case {i}: Model's forward fails on the CPU: "
                            f"{type(e).__name__}: {str(e)[:200]}")
            continue
        a_list, b_list = _tensors(out1), _tensors(out2)
        where = f"{t.module_path}:1"
        if not a_list:
            problems.append(f"{where}: case {i}: Model's forward returns no tensor")
        for k, (a, b) in enumerate(zip(a_list, b_list)):
            c["outputs"].append({"name": f"output {k}", "shape": list(a.shape),
                                 "dtype": str(a.dtype).replace("torch.", "")})
            if a.is_floating_point() and not bool(torch.isfinite(a).all()):
                problems.append(f"{where}: case {i}: output {k} has {int((~torch.isfinite(a)).sum())} non-finite "
                                "values")
            same = a.shape == b.shape and bool(((a == b) | (torch.isnan(a) & torch.isnan(b))).all()
                                               if a.is_floating_point() else (a == b).all())
            if not same:
                problems.append(f"{where}: case {i}: output {k} differs between two runs (non-deterministic forward)")
    return cases, problems


def _tensors(o):
    import torch
    if isinstance(o, torch.Tensor):
        return [o]
    if isinstance(o, (list, tuple)):
        return [t for x in o for t in _tensors(x)]
    return []
