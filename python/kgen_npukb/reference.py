"""The trusted side of an NPUKernelBench evaluation (never inside the candidate's sandbox):

    reference.py ref TASK --cases all|0,3 --seed S --out DIR
        per case i (all: every row of test_cases.csv): torch.manual_seed(S + i), init = get_init_inputs(row),
        inputs = get_inputs(row) (device None: the CPU), saved to DIR/in/case_i.pt for the candidate;
        Model(*init)(*inputs) on the CPU saved to DIR/ref/case_i.pt (which the candidate never sees), its eager aten
        ops to DIR/trace/case_i.json (for the modeled eager time; "trace_error" when they cannot be recorded). A forward
        PyTorch 1.13 cannot run in float16/bfloat16 on the CPU is run in float32 and rounded back. A case whose
        inputs or reference cannot be made here (e.g. torch.rand of an integer dtype, which the CPU refuses) is
        listed with its "error" and the others go on.
    reference.py judge TASK --cases 0,3 --ref DIR --cand DIR
        per case, the candidate's outputs (DIR/case_i/out_K.npy + dtypes.json, written by kgen from its result
        channel) against the reference with the task's custom_check_precision(row, ref, new), else the harness's
        default (an element fails when |ref - new| > 1e-3 and |ref - new| / (|ref| + 1e-7) > 1e-3, or is not finite).
Prints one JSON object; problems of the task itself are {"error": "file:line: message"} with exit status 2.
"""
import argparse
import copy
import json
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "kgen_mkb", "shims"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "shims"))   # framework.utils
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "scripts"))   # aten_trace, for the eager trace of Model

from kgen_npukb.task import Task, TaskError  # noqa: E402

ATOL = RTOL = 1e-3   # base_config.yaml eval.max_abs_error / max_rel_error


def _where(exc, task):
    tb = exc.__traceback__
    where = f"{task.module_path}:1"
    while tb is not None:
        f = tb.tb_frame.f_code.co_filename
        if f.startswith(task.dir):
            where = f"{f}:{tb.tb_lineno}"
        tb = tb.tb_next
    return where


def _low(x):
    import torch
    return isinstance(x, torch.Tensor) and x.dtype in (torch.float16, torch.bfloat16)


def _low_dtype(xs):
    """The first float16/bfloat16 dtype among the inputs (tensor lists included), or None."""
    for x in xs:
        if _low(x):
            return x.dtype
        if isinstance(x, (list, tuple)):
            d = _low_dtype(x)
            if d is not None:
                return d
    return None


def _up(x):
    if _low(x):
        # a leaf that requires grad stays one, for a reference that differentiates (NPUKernelBench's GeGluGradV2)
        y = x.detach().float()
        return y.requires_grad_() if x.requires_grad else y
    if isinstance(x, (list, tuple)):
        return type(x)(_up(v) for v in x)
    return x


def _forward(model, inputs):
    import torch
    with torch.no_grad():
        try:
            return model(*copy.deepcopy(inputs)), False
        except RuntimeError as e:
            if ("Half" not in str(e) and "BFloat16" not in str(e)) or _low_dtype(inputs) is None:
                raise
        target = _low_dtype(inputs)
        m32 = copy.deepcopy(model).float()
        out = m32(*[_up(x) for x in copy.deepcopy(inputs)])

        def back(o):
            if isinstance(o, torch.Tensor):
                return o.to(target) if o.is_floating_point() else o
            if isinstance(o, (list, tuple)):
                return type(o)(back(v) for v in o)
            return o
        return back(out), True


def case_inputs(prep, row):
    """(init, inputs) of one case as lists, made on the CPU (device None) by the task's own functions."""
    from kgen_npukb.cpu_half import low_precision_fallback
    from kgen_npukb.int_draws import integer_draws
    # torch.randn of an int8 case: drawn in float32 and converted (int_draws.py); float16 ops the CPU lacks
    # (RmsNormGrad's rsqrt of its half input) in float32, rounded back (cpu_half.py)
    with integer_draws(), low_precision_fallback():
        init = prep.get_init_inputs(row, device=None)
        inputs = prep.get_inputs(row, device=None)
    init = list(init) if isinstance(init, (list, tuple)) else [init]
    inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    return init, inputs


def _write_trace(model_cls, prep, row, init, inputs, seed, dest):
    """The eager aten ops of Model's forward on this case (scripts/aten_trace.py), for the modeled eager time: on
    FakeTensors made by the task's own get_inputs (the case's dtypes and shapes, no memory), else for real on copies
    of the case's inputs."""
    import types
    import aten_trace
    import torch
    from kgen_npukb.int_draws import integer_draws

    def fake_inputs():
        with integer_draws():
            return list(_as_list(prep.get_inputs(row, device=None)))
    mod = types.SimpleNamespace(Model=model_cls, get_init_inputs=lambda: copy.deepcopy(init), get_inputs=fake_inputs)
    mode = "fake"
    try:
        ops = aten_trace.record(mod, seed, fake=True)
    except Exception:  # noqa: BLE001 - no fake support (numpy-made inputs, data-dependent shapes): run for real
        mode = "cpu"
        mod.get_inputs = lambda: copy.deepcopy(inputs)
        ops = aten_trace.record(mod, seed, fake=False)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, "w") as f:
        json.dump({"task": row.get("case_id", ""), "torch": torch.__version__, "mode": mode, "ops": ops}, f)


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def cmd_ref(a):
    import torch
    task = Task(a.task)
    if a.cases == "all":
        a.cases = list(range(len(task.rows)))
    module, prep = task.load_modules()
    os.makedirs(os.path.join(a.out, "in"), exist_ok=True)
    os.makedirs(os.path.join(a.out, "ref"), exist_ok=True)
    done = []
    for i in a.cases:
        row = task.rows[i]
        try:
            torch.manual_seed(a.seed + i)
            init, inputs = case_inputs(prep, row)
            torch.save({"init": init, "inputs": inputs}, os.path.join(a.out, "in", f"case_{i}.pt"))
            model = module.Model(*init)
            out, upcast = _forward(model, inputs)
        except Exception as e:  # noqa: BLE001
            done.append({"case": i, "row": {k: str(v) for k, v in row.items()},
                         "error": f"{_where(e, task)}: case {i}: the reference failed on the CPU: "
                                  f"{type(e).__name__}: {str(e)[:300]}"})
            continue
        torch.save(out, os.path.join(a.out, "ref", f"case_{i}.pt"))
        entry = {"case": i, "row": {k: str(v) for k, v in row.items()}, "upcast": upcast}
        try:
            _write_trace(module.Model, prep, row, init, inputs, a.seed + i, os.path.join(a.out, "trace", f"case_{i}.json"))
        except Exception as e:  # noqa: BLE001 - no eager time for this case; the verdict does not depend on it
            entry["trace_error"] = f"{type(e).__name__}: {str(e)[:200]}"
        done.append(entry)
    if os.path.isfile(task.pybind_path):   # the binding, for the evaluator to build ahead (task.binding_text)
        os.makedirs(os.path.join(a.out, "bind"), exist_ok=True)
        with open(os.path.join(a.out, "bind", "op.cpp"), "w", encoding="utf-8") as f:
            f.write(task.binding_text())
    print(json.dumps({"op": task.op_name, "kernel": task.kernel_name, "level": task.level,
                      "category": task.category, "cases": done}))
    return 0


def _load_new(d):
    """The candidate's outputs (checked .npy files; bfloat16 travels as uint16)."""
    import numpy as np
    import torch
    with open(os.path.join(d, "count")) as f:
        n = int(f.read().strip() or 0)
    outs = []
    for k in range(n):
        arr = np.load(os.path.join(d, f"out_{k}.npy"), allow_pickle=False)
        if arr.dtype == np.uint16:   # kgen's bfloat16 (PyTorch has no uint16 tensors)
            outs.append(torch.from_numpy(arr.view(np.int16).copy()).view(torch.bfloat16))
        else:
            outs.append(torch.from_numpy(arr.copy()))
    return outs


def _max(t):
    import torch
    if not isinstance(t, torch.Tensor) or t.numel() == 0:
        return 0.0
    t = t.float()
    finite = t[torch.isfinite(t)]
    return None if finite.numel() < t.numel() else float(finite.max())   # None: not finite (strict JSON)


def cmd_judge(a):
    import torch
    task = Task(a.task)
    _, prep = task.load_modules()
    results = []
    for i in a.cases:
        ref = torch.load(os.path.join(a.ref, "ref", f"case_{i}.pt"))
        refs = list(ref) if isinstance(ref, (list, tuple)) else [ref]
        new = _load_new(os.path.join(a.cand, f"case_{i}"))
        notes = []
        if len(new) != len(refs):
            # The harness passes both lists as they are to custom_check_precision, or to check_precision, which zips
            # them: only the first min(n, m) outputs are compared (NPUKernelBench's CrossEntropyLoss binding returns 2
            # of the reference's 4). The task's own pybind.cpp and ModelNew decide the count, not the op project.
            if not new:
                results.append({"case": i, "acc": False, "message": f"ModelNew returned {len(new)} output(s), the "
                                                                     f"reference Model {len(refs)}"})
                continue
            notes.append(f"ModelNew returned {len(new)} output(s), the reference Model {len(refs)}: the first "
                         f"{min(len(new), len(refs))} compared, as the harness's check_precision zips them")
        for k, (r, n) in enumerate(zip(refs, new)):
            if isinstance(r, torch.Tensor) and tuple(r.shape) != tuple(n.shape):
                # The harness subtracts the two (check_precision: out - out_new), so shapes that differ only by
                # size-1 dims ([1] against a 0-d result) pass there; a different element count is still a mismatch.
                if r.numel() == n.numel():
                    new[k] = n.reshape(r.shape)
                    notes.append(f"output {k} has shape {list(n.shape)}, the reference {list(r.shape)}: the same "
                                 "elements, compared as the harness does")
                    continue
                results.append({"case": i, "acc": False, "message": f"output {k} has shape {list(n.shape)}, the "
                                                                     f"reference {list(r.shape)}"})
                break
        else:
            shaped = new[0] if not isinstance(ref, (list, tuple)) else type(ref)(new)
            try:
                if hasattr(prep, "custom_check_precision"):
                    acc, absd, reld = prep.custom_check_precision(task.rows[i], ref, shaped)
                    rule = "custom_check_precision"
                else:
                    from framework.utils import check_precision   # kgen's copy of the harness's rule
                    as_list = lambda o: list(o) if isinstance(o, (list, tuple)) else o  # noqa: E731
                    acc, absd, reld = check_precision(as_list(ref), as_list(shaped), ATOL, RTOL)
                    rule = "abs and rel 1e-3"
            except Exception as e:  # noqa: BLE001
                print(json.dumps({"error": f"{_where(e, task)}: case {i}: the precision check failed: "
                                           f"{type(e).__name__}: {e}"}))
                return 2
            results.append({"case": i, "acc": bool(acc), "max_abs": _max(absd), "max_rel": _max(reld), "rule": rule,
                            "notes": notes})
    print(json.dumps({"cases": results}, allow_nan=False))
    return 0


def prepare_env():
    """What a task's module.py imports on the trusted side: kgen's torch_npu shim, and a kernel_gen_ops that refuses
    every use (ModelNew calls it; the reference runs Model only)."""
    import torch
    torch.set_num_threads(1)
    import torch_npu  # noqa: F401  (kgen's shim: module.py imports it)
    import types
    absent = types.ModuleType("kernel_gen_ops")
    absent.__getattr__ = lambda name: (_ for _ in ()).throw(
        RuntimeError(f"kernel_gen_ops.{name}: the reference side runs Model only"))
    sys.modules.setdefault("kernel_gen_ops", absent)


def main(argv):
    ap = argparse.ArgumentParser(prog="reference.py")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("ref")
    r.add_argument("task")
    r.add_argument("--cases", required=True)
    r.add_argument("--seed", type=int, default=1024)
    r.add_argument("--out", required=True)
    j = sub.add_parser("judge")
    j.add_argument("task")
    j.add_argument("--cases", required=True)
    j.add_argument("--ref", required=True)
    j.add_argument("--cand", required=True)
    a = ap.parse_args(argv)
    if a.cases != "all":
        a.cases = [int(c) for c in a.cases.split(",") if c != ""]
    prepare_env()
    try:
        return cmd_ref(a) if a.cmd == "ref" else cmd_judge(a)
    except TaskError as e:
        print(json.dumps({"error": str(e)}))
        return 2
    except Exception as e:  # noqa: BLE001
        print(json.dumps({"error": f"{a.task}: {type(e).__name__}: {e}",
                          "traceback": traceback.format_exc(limit=5)}))
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
