"""The task suite: discovery, loading and checking of PyTorch reference tasks.

Reads, unchanged, four layouts:
- kgen's own tree (tasks/<category>/<name>.py): level from the file's LEVEL constant, cases = the module constants
  (case "default") plus one case per entry of the optional CASES list (dicts overriding module constants); the
  optional PERF dict overrides constants of the default case for the perf shape, which is timed (timing-only
  emulation, never checked for values) at the benchmark's real size.
- a KernelBench checkout (level1/, level2/, level3/ folders, at the root or under KernelBench/): level from the folder,
  category from the file name by KEYWORD_MAP (first matching keyword wins; level 2 files whose dominant op is a
  matmul/conv are "fuse", level 3 files are "arch" unless they are attention; unmatched level-1 files are "math").
- a MultiKernelBench reference tree (reference/<category>/<name>.py, or the reference folder itself): category from
  the folder, level 2 for fuse, 3 for arch, 1 otherwise.
- NPUKernelBench tasks inside it (reference/npukernelbench_levelN/<name>.py with a sibling <name>.json, JSONL, one
  case per line): source "NPUKernelBench", level N, category by KEYWORD_MAP, one case per JSON line; the inputs of a
  case come from the task's get_input_groups()[i].
- an NPUKernelBench checkout (its tasks/levelN/<Category>/<Op>/ folders, at the root or under tasks/;
  python/kgen_npukb/suite.py): id <Category>/<Op>, source "NPUKernelBench", level N, category the folder's, one case per
  row of validation/test_cases.csv; the task's path is its folder.
Files whose name starts with "_" are skipped (as MultiKernelBench does).

Loading a case (load_case): the task file is executed in a fresh namespace in which every top-level assignment of an
overridden constant takes the case's value instead (so constants derived from it follow), then torch is seeded
(seed 42 by default) and get_init_inputs() and get_inputs() are called.  make_model() seeds again and builds the
Model, so the reference and a candidate built the same way get the same parameters.

Reference dtype policy (run_reference): when a case has float16 or bfloat16 inputs (or parameters), the model and the
floating inputs are upcast to float32, the forward runs in float32, and floating outputs are rounded to the case's
dtype once at the end.  Reason: this machine's PyTorch (Debian's 1.13) lacks most float16 CPU kernels, and its fp16
CPU reductions accumulate in fp16 (a mean of 1e5 squares overflows), where the chip's kernels accumulate in fp32.
The reference is thus the fp32 computation rounded once, which a well-written fp16 kernel approximates.

Run as a script: tasks.py list [--suite DIR] [--json] | check [--suite DIR] [--filter S] [--json].
"""
from __future__ import annotations

import ast
import json
import os
import re
import sys
import time
import traceback
from dataclasses import dataclass, field, asdict
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # python/: kgen_npukb
from kgen_npukb import suite as npukb_suite  # noqa: E402

CATEGORIES = ("activation", "broadcast", "reduce", "normalization", "loss", "pooling", "matmul", "convolution",
              "attention", "index", "math", "optimizer", "resize", "fuse", "arch")

# File-name keyword -> category, for KernelBench and NPUKernelBench files (names lower-cased, tried in order).
KEYWORD_MAP = [
    (r"attention|attn|sdpa|rotary|rope", "attention"),
    (r"conv", "convolution"),
    (r"matrix_scalar", "math"),
    (r"matmul|gemm|multiplication|bmm|matvec|linear|_mm_|^mm_", "matmul"),
    (r"pool", "pooling"),
    (r"loss|entropy|hinge|huber|kl_div|triplet|cosine_similarity|mse", "loss"),
    (r"norm", "normalization"),
    (r"softmax|relu|gelu|sigmoid|tanh|swish|silu|elu|softplus|softsign|hardtanh|mish|swi_glu|swiglu", "activation"),
    (r"argmax|argmin", "index"),
    (r"sum|mean|max|min|prod|reduc|top_k|topk|sort", "reduce"),
    (r"argmax|argmin|gather|scatter|index|embedding|masked|take|nonzero|select", "index"),
    (r"upsampl|interpolat|resize|grid_sample|downsampl", "resize"),
    (r"adam|sgd|rmsprop|adagrad|lamb|optim", "optimizer"),
    (r"cumsum|cumprod|scan|abs|log|exp|sqrt|pow|div|floor|histc|add|sub|mul", "math"),
    (r"bias|broadcast|where|clamp", "broadcast"),
]


def category_from_name(name: str, level: int) -> str:
    n = name.lower()
    n = re.sub(r"^\d+_", "", n)  # KernelBench's "19_ReLU" numbering
    found = None
    for pat, cat in KEYWORD_MAP:
        if re.search(pat, n):
            found = cat
            break
    if level >= 3:
        return "attention" if found == "attention" else "arch"
    if level == 2:
        return "fuse"
    return found or "math"


@dataclass
class Case:
    name: str
    overrides: dict = field(default_factory=dict)


@dataclass
class Task:
    id: str
    category: str
    level: int
    path: str
    source: str                      # kgen | KernelBench | MultiKernelBench | NPUKernelBench
    cases: list = field(default_factory=list)
    perf: dict | None = None         # PERF: constant overrides on the default case for the timing-only perf shape
    dtypes: list = field(default_factory=list)   # dtype names over all cases, as far as known without running
    problems: list = field(default_factory=list) # found while discovering (unparsable file, bad LEVEL, ...)
    # A peer file (KernelBench / MultiKernelBench format: no LEVEL, CASES or PERF) is timed at its own sizes (perf
    # = {}) and checked at a scaled copy of them when its inputs exceed CHECK_INPUT_BYTES (peer_check_case).
    peer: bool = False
    check_note: str = ""             # what the check case scaled, once peer_check_case has run

    def to_json(self) -> dict:
        d = asdict(self)
        d["cases"] = [{"name": c.name, "overrides": {k: _jsonable(v) for k, v in c.overrides.items()}}
                      for c in self.cases]
        d["perf"] = None if self.perf is None else {"name": _case_name(self.perf),
                                                    "overrides": {k: _jsonable(v) for k, v in self.perf.items()}}
        return d


class TorchAttr:
    """A `torch.<name>` value read from a task file without importing torch (e.g. torch.float16)."""
    def __init__(self, name: str):
        self.name = name
    def __repr__(self):
        return "torch." + self.name
    def __eq__(self, other):
        return isinstance(other, TorchAttr) and other.name == self.name
    def __hash__(self):
        return hash(self.name)
    def resolve(self):
        import torch
        obj = torch
        for part in self.name.split("."):
            obj = getattr(obj, part)
        return obj


def _jsonable(v):
    if isinstance(v, TorchAttr):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (int, float, str, bool)) or v is None:
        return v
    return repr(v)


def _resolve(v):
    if isinstance(v, TorchAttr):
        return v.resolve()
    if isinstance(v, tuple):
        return tuple(_resolve(x) for x in v)
    if isinstance(v, list):
        return [_resolve(x) for x in v]
    if isinstance(v, dict):
        return {k: _resolve(x) for k, x in v.items()}
    return v


class _NotStatic(Exception):
    pass


def _static_value(node: ast.AST):
    """Evaluates a literal expression that may contain torch.<attr> and dict(...) calls."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.Tuple, ast.List)):
        vals = [_static_value(e) for e in node.elts]
        return tuple(vals) if isinstance(node, ast.Tuple) else vals
    if isinstance(node, ast.Dict):
        return {_static_value(k): _static_value(v) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and not node.args:
        return {kw.arg: _static_value(kw.value) for kw in node.keywords}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_static_value(node.operand)
    if isinstance(node, ast.Attribute):
        parts = []
        n = node
        while isinstance(n, ast.Attribute):
            parts.append(n.attr)
            n = n.value
        if isinstance(n, ast.Name) and n.id == "torch":
            return TorchAttr(".".join(reversed(parts)))
    raise _NotStatic(ast.dump(node)[:80])


def _dtype_name(v) -> str | None:
    if isinstance(v, TorchAttr) and v.name in ("float32", "float", "float16", "half", "bfloat16", "float64", "double",
                                               "int8", "uint8", "int16", "int32", "int", "int64", "long", "bool"):
        return {"float": "float32", "half": "float16", "double": "float64", "int": "int32", "long": "int64"}.get(
            v.name, v.name)
    return None


def _case_name(overrides: dict) -> str:
    parts = []
    for k, v in overrides.items():
        dn = _dtype_name(v)
        parts.append(f"{k}={dn if dn else _jsonable(v)}".replace(" ", ""))
    return ",".join(parts) if parts else "default"


def _parse_kgen_like(path: str, task: Task, need_level: bool):
    """Reads LEVEL, the module constants and CASES of a task file without running it."""
    try:
        with open(path, encoding="utf-8") as f:
            src = f.read()
        tree = ast.parse(src, filename=path)
    except (OSError, SyntaxError, UnicodeDecodeError) as e:
        line = getattr(e, "lineno", None)
        task.problems.append(f"{path}:{line or 1}: cannot parse: {e}")
        return
    consts: dict[str, Any] = {}
    names = set()
    level = None
    cases_node = None
    perf_node = None
    for st in tree.body:
        if isinstance(st, (ast.FunctionDef, ast.ClassDef)):
            names.add(st.name)
        targets = []
        if isinstance(st, ast.Assign):
            targets = [t.id for t in st.targets if isinstance(t, ast.Name)]
            value = st.value
        elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
            targets = [st.target.id]
            value = st.value
        for t in targets:
            if t == "CASES":
                cases_node = st
                continue
            if t == "PERF":
                perf_node = st
                continue
            try:
                consts[t] = _static_value(value)
            except _NotStatic:
                consts[t] = None
            if t == "LEVEL":
                level = consts[t]
                if not isinstance(level, int) or level not in (1, 2, 3):
                    task.problems.append(f"{path}:{st.lineno}: LEVEL must be 1, 2 or 3 (got {ast.unparse(value)})")
    for need in ("Model", "get_inputs", "get_init_inputs"):
        if need not in names and need not in consts:
            if need == "get_inputs" and "get_input_groups" in names:
                continue
            task.problems.append(f"{path}:1: no top-level {need}")
    if need_level:
        if level is None:
            task.problems.append(f"{path}:1: no LEVEL = 1|2|3 constant")
        elif isinstance(level, int) and level in (1, 2, 3):
            task.level = level
        if not ast.get_docstring(tree):
            task.problems.append(f"{path}:1: no one-line docstring saying what the task computes")
    task.cases = [Case("default", {})]
    task.peer = level is None and cases_node is None and perf_node is None
    if task.peer:
        task.perf = {}   # timed at its own sizes; checked at a scaled copy when they are large (peer_check_case)
    if cases_node is not None:
        try:
            entries = _static_value(cases_node.value)
            if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
                raise _NotStatic("not a list of dicts")
        except _NotStatic:
            task.problems.append(f"{path}:{cases_node.lineno}: CASES must be a list of dict(...) of literals or "
                                 f"torch.<dtype> values")
            entries = []
        seen = {}
        for i, e in enumerate(entries):
            lineno = cases_node.value.elts[i].lineno if hasattr(cases_node.value, "elts") else cases_node.lineno
            for k in e:
                if k not in consts:
                    task.problems.append(f"{path}:{lineno}: CASES[{i}] overrides {k!r}, which is not a module constant")
            name = _case_name(e)
            if name in seen:
                task.problems.append(f"{path}:{lineno}: CASES[{i}] repeats case {name!r}")
                name = f"{name}#{i}"
            seen[name] = i
            task.cases.append(Case(name, dict(e)))
    if perf_node is not None:
        try:
            perf = _static_value(perf_node.value)
            if not isinstance(perf, dict) or not perf:
                raise _NotStatic("not a dict")
        except _NotStatic:
            task.problems.append(f"{path}:{perf_node.lineno}: PERF must be one dict(...) of literal overrides of "
                                 f"module constants, e.g. PERF = dict(batch_size=4096, dim=393216)")
            perf = None
        for k in perf or {}:
            if k not in consts:
                task.problems.append(f"{path}:{perf_node.lineno}: PERF overrides {k!r}, which is not a module constant")
                perf = None
        task.perf = perf
    # dtypes: every constant holding a torch dtype, after each case's overrides; "float32" when none is declared
    dts = []
    for c in task.cases:
        vals = dict(consts)
        vals.update(c.overrides)
        found = [dn for k, v in vals.items() if (dn := _dtype_name(v)) and "dtype" in k.lower()]
        for dn in found or ["float32"]:
            if dn not in dts:
                dts.append(dn)
    task.dtypes = dts


def _is_kernelbench(root: str) -> str | None:
    for base in (root, os.path.join(root, "KernelBench")):
        if any(os.path.isdir(os.path.join(base, f"level{i}")) for i in (1, 2, 3)):
            return base
    return None


def _looks_like_mkb(folder: str) -> bool:
    """A MultiKernelBench reference tree under another name: its npukernelbench_levelN folders, or category
    folders of task files none of which declares kgen's LEVEL."""
    try:
        subs = [d for d in sorted(os.listdir(folder)) if os.path.isdir(os.path.join(folder, d))]
    except OSError:
        return False
    if any(re.fullmatch(r"npukernelbench_level\d+", d) for d in subs):
        return True
    models = 0
    for d in subs:
        for n in _py_files(os.path.join(folder, d)):
            try:
                with open(os.path.join(folder, d, n), encoding="utf-8", errors="replace") as f:
                    text = f.read()
            except OSError:
                continue
            if re.search(r"^LEVEL\s*=", text, re.M):
                return False
            models += bool(re.search(r"^class Model\b", text, re.M))
    return models > 0


def _mkb_reference(root: str) -> str | None:
    if os.path.basename(os.path.normpath(root)) == "reference":
        return root
    if os.path.isdir(os.path.join(root, "reference")):
        return os.path.join(root, "reference")
    return root if _looks_like_mkb(root) else None


def _py_files(folder: str):
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [n for n in names if n.endswith(".py") and not n.startswith("_")
            and os.path.isfile(os.path.join(folder, n))]


def discover(root: str) -> list[Task]:
    """All tasks under root (kgen tree, KernelBench or NPUKernelBench checkout, MultiKernelBench reference tree),
    sorted by id."""
    tasks: list[Task] = []
    nk = npukb_suite.root_of(root)
    if nk:   # before KernelBench: both have levelN/ folders
        for lv, cat, op, path in npukb_suite.task_folders(nk):
            t = Task(f"{cat}/{op}", cat, lv, path, "NPUKernelBench")
            cases, t.dtypes, t.problems = npukb_suite.describe(path)
            t.cases = [Case(name, row) for name, row in cases]
            tasks.append(t)
        tasks.sort(key=lambda t: t.id)
        return tasks
    kb = _is_kernelbench(root)
    mkb = None if kb else _mkb_reference(root)
    if kb:
        for lv in (1, 2, 3):
            folder = os.path.join(kb, f"level{lv}")
            for n in _py_files(folder):
                stem = n[:-3]
                cat = category_from_name(stem, lv)
                t = Task(f"{cat}/{stem}", cat, lv, os.path.join(folder, n), "KernelBench")
                _guarded(_parse_kgen_like, t, t.path, t, need_level=False)
                tasks.append(t)
    else:
        base = mkb or root
        for cat in sorted(os.listdir(base)) if os.path.isdir(base) else []:
            folder = os.path.join(base, cat)
            if not os.path.isdir(folder) or cat.startswith((".", "_")):
                continue
            m = re.fullmatch(r"npukernelbench_level(\d+)", cat)
            for n in _py_files(folder):
                stem = n[:-3]
                path = os.path.join(folder, n)
                if m:
                    lv = int(m.group(1))
                    c = category_from_name(stem, 1)   # by file name, whatever N
                    t = Task(f"{cat}/{stem}", c, lv, path, "NPUKernelBench")
                    _guarded(_parse_npukb, t, path, t)
                else:
                    src = "MultiKernelBench" if mkb else "kgen"
                    lv = 2 if cat == "fuse" else 3 if cat == "arch" else 1
                    t = Task(f"{cat}/{stem}", cat, lv, path, src)
                    _guarded(_parse_kgen_like, t, path, t, need_level=(src == "kgen"))
                    if src == "kgen" and cat not in CATEGORIES:
                        t.problems.append(f"{path}:1: category folder {cat!r} is not one of {', '.join(CATEGORIES)}")
                tasks.append(t)
    tasks.sort(key=lambda t: t.id)
    return tasks


def _guarded(parse, task: Task, *args, **kw):
    """parse(*args, **kw); a file it cannot make sense of becomes a problem of that task, not a crash of the listing."""
    try:
        parse(*args, **kw)
    except Exception as e:  # noqa: BLE001
        task.problems.append(f"{task.path}:1: kgen cannot read this task ({type(e).__name__}: {e}); "
                             f"please report it with the file")


def _parse_npukb(path: str, task: Task):
    task.cases = []
    jpath = path[:-3] + ".json"
    if not os.path.isfile(jpath):
        task.problems.append(f"{path}:1: NPUKernelBench task without its case file {os.path.basename(jpath)}")
        return
    dts = []
    with open(jpath, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                d = json.loads(line)
            except json.JSONDecodeError as e:
                task.problems.append(f"{jpath}:{i}: not JSON: {e}")
                continue
            summary = []
            inputs = d.get("inputs", []) if isinstance(d, dict) else None
            if not isinstance(inputs, list):
                task.problems.append(f"{jpath}:{i}: a case line is an object with a list \"inputs\"")
                continue
            for inp in inputs:
                if isinstance(inp, dict) and inp.get("type") == "tensor":
                    dt = str(inp.get("dtype", "?"))
                    shape = inp.get("shape")
                    if shape is None:   # an optional tensor left out of this case
                        if inp.get("required", True):
                            task.problems.append(f"{jpath}:{i}: required tensor {inp.get('name', '?')!r} has no shape")
                        summary.append(f"{inp.get('name', '?')}=None")
                        continue
                    if dt not in dts:
                        dts.append(dt)
                    summary.append(f"{dt}{list(shape)}".replace(" ", ""))
            idx = len(task.cases)
            task.cases.append(Case(f"group{idx}:" + ",".join(summary), {"__input_group__": idx}))
    task.dtypes = dts
    _parse_kgen_like_min(path, task)


def _parse_kgen_like_min(path: str, task: Task):
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename=path)
    except (OSError, SyntaxError) as e:
        task.problems.append(f"{path}:{getattr(e, 'lineno', 1) or 1}: cannot parse: {e}")
        return
    names = {st.name for st in tree.body if isinstance(st, (ast.FunctionDef, ast.ClassDef))}
    for need in ("Model", "get_input_groups"):
        if need not in names:
            task.problems.append(f"{path}:1: no top-level {need}")


# ----------------------------------------------------------------------------------------------------------------
# Loading and running

class _OverrideConsts(ast.NodeTransformer):
    def __init__(self, keys):
        self.keys = set(keys)
        self.done = set()

    def visit_Module(self, node):
        for st in node.body:
            tgt = None
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                tgt = st.targets[0].id
            elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
                tgt = st.target.id
            if tgt in self.keys:
                st.value = ast.copy_location(
                    ast.Subscript(value=ast.Name(id="__kgen_overrides__", ctx=ast.Load()),
                                  slice=ast.Constant(value=tgt), ctx=ast.Load()), st.value)
                self.done.add(tgt)
        return node


def _module_namespace(task: Task, overrides: dict) -> dict:
    with open(task.path, encoding="utf-8") as f:
        src = f.read()
    tree = ast.parse(src, filename=task.path)
    ov = {k: _resolve(v) for k, v in overrides.items() if not k.startswith("__")}
    tr = _OverrideConsts(ov.keys())
    tree = ast.fix_missing_locations(tr.visit(tree))
    ns = {"__name__": "kgen_task_" + re.sub(r"\W", "_", task.id), "__file__": os.path.abspath(task.path),
          "__builtins__": __builtins__, "__kgen_overrides__": ov}
    ns.update({k: v for k, v in ov.items() if k not in tr.done})
    folder = os.path.dirname(os.path.abspath(task.path))
    added = folder not in sys.path
    if added:
        sys.path.insert(0, folder)   # KernelBench level-3 files may import siblings
    try:
        exec(compile(tree, task.path, "exec"), ns)
    finally:
        if added:
            sys.path.remove(folder)
    return ns


def find_case(task: Task, case) -> Case:
    if isinstance(case, Case):
        return case
    if case is None:
        return task.cases[0]
    if isinstance(case, int):
        return task.cases[case]
    for c in task.cases:
        if c.name == case:
            return c
    raise KeyError(f"{task.id}: no case {case!r} (cases: {', '.join(c.name for c in task.cases)})")


# The most input bytes a check case may draw: every value is computed by the CPU reference and emulated.
CHECK_INPUT_BYTES = 64 << 20


def _fake_input_bytes(task: Task, overrides: dict, seed: int = 42):
    """Bytes of the inputs get_inputs() builds under `overrides`, on FakeTensors (no memory); None if it fails."""
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode
    try:
        ns = _module_namespace(task, overrides)
        with torch.no_grad(), FakeTensorMode():
            torch.manual_seed(seed)
            inputs = list(ns["get_inputs"]())
    except Exception:  # noqa: BLE001 - a task file can raise anything
        return None
    return sum(t.numel() * t.element_size() for t in inputs if isinstance(t, torch.Tensor))


def peer_check_case(task: Task) -> Case:
    """The default case of a peer file as kgen checks it: its own sizes when its inputs take at most CHECK_INPUT_BYTES,
    else those sizes with batch-like constants divided by powers of two until they do. A constant is batch-like when
    halving it (nearly) halves the input bytes; those named batch* are tried first, then the others in file order, so
    the other dimensions (and the per-core tiling a kernel derives from them) stay as the benchmark has them. The
    perf shape stays the file's own (task.perf = {}). task.check_note says what was scaled."""
    case = task.cases[0]
    if not task.peer or case.overrides:
        return case
    base = _fake_input_bytes(task, {})
    if base is None or base <= CHECK_INPUT_BYTES:
        return case
    with open(task.path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=task.path)
    ints = []
    for st in tree.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            try:
                v = _static_value(st.value)
            except _NotStatic:
                continue
            if isinstance(v, int) and not isinstance(v, bool) and v >= 2:
                ints.append((st.targets[0].id, v))
    ints.sort(key=lambda nv: 0 if "batch" in nv[0].lower() else 1)   # stable: file order within each group
    overrides, now, notes = {}, base, []
    for name, v in ints:
        if now <= CHECK_INPUT_BYTES:
            break
        half = _fake_input_bytes(task, {**overrides, name: v // 2})
        if half is None or half > 0.6 * now:
            continue   # not batch-like: the bytes do not follow it
        f = 2
        while now / f > CHECK_INPUT_BYTES and v // (2 * f) >= 1:
            f *= 2
        got = _fake_input_bytes(task, {**overrides, name: v // f})
        if got is None:
            continue
        overrides[name] = v // f
        notes.append(f"{name} {v} -> {v // f}")
        now = got
    if not overrides:
        return case
    task.cases[0] = Case("default", overrides)
    task.check_note = (f"checked at a scaled copy of the file's sizes ({', '.join(notes)}: inputs "
                       f"{base / 2**20:.0f} MiB -> {now / 2**20:.1f} MiB); timed at its own sizes")
    return task.cases[0]


def load_case(task: Task, case=None, seed: int = 42):
    """(Model class, init_inputs, inputs) of one case (a Case, its name, its index, or None for the default)."""
    import torch
    c = find_case(task, case)
    if task.peer and c.name == "default":
        c = peer_check_case(task)
    ns = _module_namespace(task, c.overrides)
    model_cls = ns["Model"]
    torch.manual_seed(seed)
    init = list(ns["get_init_inputs"]()) if "get_init_inputs" in ns else []
    torch.manual_seed(seed)
    if "__input_group__" in c.overrides:
        groups = ns["get_input_groups"]()
        inputs = list(groups[c.overrides["__input_group__"]])
    else:
        inputs = list(ns["get_inputs"]())
    return model_cls, init, inputs


def make_model(model_cls, init_inputs, seed: int = 42):
    """Seeds torch and builds the model (so the reference and a candidate get the same parameters). The module stays
    in its default (training) mode, as KernelBench and MultiKernelBench run it; tasks have no dropout."""
    import torch
    torch.manual_seed(seed)
    return model_cls(*init_inputs)


def run_reference(model, inputs):
    """model(*inputs) under no_grad; returns (output, upcast). When a floating input, parameter or buffer is float16
    or bfloat16 (upcast=True), the forward runs in float32 on upcast copies and floating outputs are rounded to that
    dtype once at the end (module doc: this PyTorch lacks most fp16 CPU kernels, and its fp16 CPU reductions
    accumulate in fp16, overflowing where the chip accumulates in fp32)."""
    import torch
    with torch.no_grad():
        low = [t.dtype for t in list(inputs) + list(model.parameters()) + list(model.buffers())
               if isinstance(t, torch.Tensor) and t.dtype in (torch.float16, torch.bfloat16)]
        if not low:
            return model(*inputs), False
        target = low[0]
        import copy
        m32 = copy.deepcopy(model).float()
        in32 = [t.float() if isinstance(t, torch.Tensor) and t.is_floating_point() else t for t in inputs]
        out = m32(*in32)

        def back(o):
            if isinstance(o, torch.Tensor):
                return o.to(target) if o.is_floating_point() else o
            if isinstance(o, (tuple, list)):
                return type(o)(back(x) for x in o)
            return o
        return back(out), True


def _flatten(o, prefix="output"):
    import torch
    if isinstance(o, torch.Tensor):
        return [(prefix, o)]
    if isinstance(o, (tuple, list)):
        r = []
        for i, x in enumerate(o):
            r += _flatten(x, f"{prefix}[{i}]")
        return r
    return [(prefix, o)]


def _where(task: Task, exc: BaseException) -> str:
    """file:line of the innermost frame of the task file in exc's traceback."""
    line = 1
    target = os.path.abspath(task.path)
    for fr in traceback.extract_tb(exc.__traceback__):
        if os.path.abspath(fr.filename) == target:
            line = fr.lineno
    return f"{task.path}:{line}"


def _case_line(task: Task, case: Case) -> int:
    if case.name == "default":
        return 1
    try:
        with open(task.path, encoding="utf-8") as f:
            for i, l in enumerate(f, 1):
                if l.lstrip().startswith("CASES"):
                    return i
    except OSError:
        pass
    return 1


def _forward_line(task: Task) -> int:
    try:
        with open(task.path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for st in tree.body:
            if isinstance(st, ast.ClassDef) and st.name == "Model":
                for fn in st.body:
                    if isinstance(fn, ast.FunctionDef) and fn.name == "forward":
                        return fn.lineno
                return st.lineno
    except (OSError, SyntaxError):
        pass
    return 1


def _low_precision_forward(cls, init, inputs, seed: int) -> str:
    """'' when Model(*init) runs on the inputs in their own dtypes, else the error. Runs on FakeTensors (shapes and
    dtypes, no arithmetic), where this CPU's missing float16 kernels do not matter; only dtype mismatches count (a
    float32 layer fed float16 inputs), the error eager PyTorch on the NPU would raise too."""
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.nn.utils.stateless import functional_call
    try:
        model = make_model(cls, init, seed)
        with torch.no_grad(), FakeTensorMode() as fm:
            state = {n: fm.from_tensor(t) for n, t in list(model.named_parameters()) + list(model.named_buffers())}
            fake = [fm.from_tensor(t) if isinstance(t, torch.Tensor) else t for t in inputs]
            functional_call(model, state, tuple(fake))
    except Exception as e:  # noqa: BLE001
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        if re.search(r"same dtype|should be the same|expected scalar type|dtype", msg, re.I):
            return f"{type(e).__name__}: {msg}"
    return ""


def fake_forward(ns: dict, model, seed: int, mode=None):
    """The forward of a loaded task namespace on FakeTensors (shapes and dtypes, no memory, no arithmetic): the
    perf shape's (inputs, output). `mode`: a TorchDispatchMode to run the forward under (the aten recorder)."""
    import contextlib
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.nn.utils.stateless import functional_call
    with torch.no_grad(), FakeTensorMode() as fm:
        torch.manual_seed(seed)
        inputs = list(ns["get_inputs"]())   # torch.rand & co. under the mode make FakeTensors
        state = {n: fm.from_tensor(t) for n, t in list(model.named_parameters()) + list(model.named_buffers())}
        with mode if mode is not None else contextlib.nullcontext():
            out = functional_call(model, state, tuple(inputs))
    return inputs, out


def check_perf(task: Task, seed: int = 42) -> tuple[dict, list]:
    """The PERF shape on FakeTensors: ({name, input_bytes, outputs}, problems)."""
    import torch
    line = 1
    with open(task.path, encoding="utf-8", errors="replace") as f:
        for i, text in enumerate(f, 1):
            if text.startswith("PERF"):
                line = i
    r = {"name": _case_name(task.perf), "input_bytes": 0, "outputs": []}
    try:
        ns = _module_namespace(task, task.perf)
        torch.manual_seed(seed)
        init = list(ns["get_init_inputs"]()) if "get_init_inputs" in ns else []
        inputs, out = fake_forward(ns, make_model(ns["Model"], init, seed), seed)
    except Exception as e:  # noqa: BLE001 - a task file can raise anything
        return r, [f"{task.path}:{line}: the perf shape {r['name']}: the forward does not run on FakeTensors "
                   f"({type(e).__name__}: {str(e)[:200]}) — kgen times it from shapes alone"]
    r["input_bytes"] = sum(t.numel() * t.element_size() for t in inputs if isinstance(t, torch.Tensor))
    r["outputs"] = [{"name": n, "shape": list(o.shape), "dtype": str(o.dtype).replace("torch.", "")}
                    for n, o in _flatten(out) if isinstance(o, torch.Tensor)]
    return r, []


def check(task: Task, seed: int = 42, max_forward_s: float = 1.0) -> dict:
    """Runs every case through Model on the CPU: loads, every input on the CPU, a dtype override reaches an input,
    the forward runs, leaves its inputs unchanged, gives tensors, finite, not empty, the same output from a fresh model
    with another RNG state (deterministic), within max_forward_s.  Returns {id, path, problems, cases: [{name,
    forward_s, input_bytes, outputs: [{name, shape, dtype}], upcast}]}; problems are 'file:line: message' strings:
    the line of CASES for a case's setup, of Model.forward for its outputs, of the failing frame for an exception."""
    if os.path.isdir(task.path):   # an NPUKernelBench task folder: its own reference, at the benchmark's sizes
        cases, found = npukb_suite.check(task.path)
        return {"id": task.id, "path": task.path, "problems": task.problems + found, "cases": cases, "perf": None}
    import torch
    problems = list(task.problems)
    results = []
    peer_check_case(task)
    for c in task.cases:
        where = f"{task.path}:{_case_line(task, c)}"
        r = {"name": c.name, "forward_s": None, "input_bytes": 0, "outputs": [], "upcast": False}
        if task.peer and c.name == "default" and task.check_note:
            r["note"] = task.check_note
        results.append(r)
        try:
            cls, init, inputs = load_case(task, c, seed)
        except Exception as e:  # noqa: BLE001 - a task file can raise anything
            problems.append(f"{_where(task, e)}: case {c.name}: loading failed: {type(e).__name__}: {e}")
            continue
        for i, t in enumerate(inputs):
            if isinstance(t, torch.Tensor):
                r["input_bytes"] += t.numel() * t.element_size()
                if t.device.type != "cpu":
                    problems.append(f"{where}: case {c.name}: input {i} is on {t.device}, not the CPU")
        for k, v in c.overrides.items():
            dn = _dtype_name(v)
            if dn and k == "dtype" and not any(isinstance(t, torch.Tensor) and str(t.dtype) == "torch." + dn
                                               for t in inputs):
                problems.append(f"{where}: case {c.name}: no input has dtype {dn}: the override has no effect")
        try:
            model = make_model(cls, init, seed)
            saved = [t.clone() if isinstance(t, torch.Tensor) else t for t in inputs]
            t0 = time.perf_counter()
            out1, up = run_reference(model, inputs)
            r["forward_s"] = time.perf_counter() - t0
            r["upcast"] = up
            for i, (a, b) in enumerate(zip(saved, inputs)):
                if isinstance(a, torch.Tensor) and not torch.equal(a, b):
                    problems.append(f"{where}: case {c.name}: forward modified input {i} in place")
            model2 = make_model(cls, init, seed)
            torch.manual_seed(seed + 1)      # a forward that draws random numbers gives a different output
            out2, _ = run_reference(model2, saved)
        except Exception as e:  # noqa: BLE001
            problems.append(f"{_where(task, e)}: case {c.name}: forward failed: {type(e).__name__}: {e}")
            continue
        if up:
            # The reference ran upcast to float32; the forward must also run in the case's own dtypes, as eager
            # PyTorch on the NPU (and the eager op trace) runs it: shapes and dtypes only, on FakeTensors.
            problem = _low_precision_forward(cls, init, saved, seed)
            if problem:
                problems.append(f"{where}: case {c.name}: the forward fails in the case's dtypes ({problem}) — "
                                "convert the Model's layers to the case dtype in __init__: self.to(dtype)")
        where = f"{task.path}:{_forward_line(task)}"
        f1, f2 = _flatten(out1), _flatten(out2)
        for (name, a), (_, b) in zip(f1, f2):
            if not isinstance(a, torch.Tensor):
                problems.append(f"{where}: case {c.name}: {name} is a {type(a).__name__}, not a tensor")
                continue
            r["outputs"].append({"name": name, "shape": list(a.shape), "dtype": str(a.dtype).replace("torch.", "")})
            if a.numel() == 0:
                problems.append(f"{where}: case {c.name}: {name} is empty")
            if a.is_floating_point() and not bool(torch.isfinite(a).all()):
                bad = int((~torch.isfinite(a)).sum())
                problems.append(f"{where}: case {c.name}: {name} has {bad} non-finite values")
            same = a.shape == b.shape and a.dtype == b.dtype and bool(
                ((a == b) | (torch.isnan(a) & torch.isnan(b)) if a.is_floating_point() else (a == b)).all())
            if not same:
                problems.append(f"{where}: case {c.name}: {name} differs between two runs (non-deterministic forward)")
        if r["forward_s"] is not None and r["forward_s"] > max_forward_s:
            problems.append(f"{where}: case {c.name}: forward took {r['forward_s']:.2f} s on the CPU "
                            f"(limit {max_forward_s} s): make the sizes smaller")
    perf = None
    if task.perf is not None:
        perf, found = check_perf(task, seed)
        problems += found
    return {"id": task.id, "path": task.path, "problems": problems, "cases": results, "perf": perf}


# ----------------------------------------------------------------------------------------------------------------
# Script entry (used by `kgen tasks`)

def _emit(doc, out: str):
    text = json.dumps(doc, indent=1)
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        print(text)


def _main(argv):
    import argparse
    p = argparse.ArgumentParser(prog="tasks.py")
    p.add_argument("cmd", choices=["list", "check"])
    p.add_argument("--suite", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tasks"))
    p.add_argument("--filter", default="")
    p.add_argument("--json", action="store_true")
    p.add_argument("--out", default="", help="write the JSON to this file instead of stdout")
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--max-forward-s", type=float, default=1.0)
    a = p.parse_args(argv)
    if not os.path.isdir(a.suite):
        print(f"tasks.py: no suite folder {a.suite}", file=sys.stderr)
        return 2
    tasks = [t for t in discover(a.suite) if a.filter in t.id]
    if a.cmd == "list":
        if a.json:
            _emit([t.to_json() for t in tasks], a.out)
        else:
            for t in tasks:
                print(f"{t.id:<44} L{t.level} {len(t.cases):>3} {','.join(t.dtypes)}")
        return 0
    import torch
    torch.set_num_threads(1)
    results = []
    for t in tasks:
        res = check(t, a.seed, a.max_forward_s)
        res["level"] = t.level
        results.append(res)
        if not a.json:
            status = "ok" if not res["problems"] else "FAIL"
            fw = max((c["forward_s"] or 0) for c in res["cases"]) if res["cases"] else 0
            print(f"{t.id:<44} {status:<4} {len(t.cases)} cases, slowest forward {fw * 1000:.1f} ms", flush=True)
            for pr in res["problems"]:
                print("  " + pr, flush=True)
    if a.json:
        _emit(results, a.out)
    return 1 if any(r["problems"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
