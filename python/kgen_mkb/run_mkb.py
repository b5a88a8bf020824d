"""The candidate side of a MultiKernelBench AscendC submission, run by the evaluator inside its sandbox: extracts the
op project from the six strings, builds custom_ops_lib (each call runs the op on kgen's emulator through
`kgen-oprun call`), builds ModelNew as MultiKernelBench does (torch.manual_seed(seed) before ModelNew(*init)), runs
its forward on the inputs the evaluator computed, and sends the outputs back on the result channel. The reference
Model never runs here: the evaluator computed its outputs in another process and compares them itself.

    run_mkb.py SUB.py --task REF.py --oprun PATH --work DIR --manifest M.json --channel FD [--soc S]

M.json: {"groups": [{"seed": N, "trials": [{"id": "t0", "args": [{"tensor": PATH, "dtype": D} | {"value": V}]}]}]}.
Frames (src/sandbox/channel.h): per trial "npy ID.K" for each output (a tuple flattened, non-tensors as 0-d
tensors), "trace ID.N" for each launch of the first trial, then "json ID" with the output dtypes and notes.
Exit status: 0 done, 3 the submission is wrong (diagnostics on stderr), 2 usage.
"""
import argparse
import io
import json
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))


def _diag(line):
    print(line, file=sys.stderr, flush=True)


def _src_line(tb, filename, base):
    """The submission line of the innermost traceback frame in `filename` (exec'd model_src), or 0."""
    line = 0
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return base + line - 1 if line else 0


def _flatten(x):
    import torch
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (list, tuple)):
        out = []
        for e in x:
            out += _flatten(e)
        return out
    return [x]


def _frame(fd, kind, name, data):
    head = f"KGF1 {kind} {name} {len(data)}\n".encode()
    view = memoryview(head + data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _npy_bytes(t):
    import numpy as np
    import torch
    if not isinstance(t, torch.Tensor):
        t = torch.tensor(t)
    t = t.detach().cpu().contiguous()
    arr = t.view(torch.int16).numpy().view(np.uint16) if t.dtype == torch.bfloat16 else t.numpy()
    buf = io.BytesIO()
    np.save(buf, arr)
    return buf.getvalue(), str(t.dtype).replace("torch.", "")


def send_outputs(channel, prefix, outs, traces, with_traces):
    """Frames "npy PREFIX.K" for each output, then (with_traces) "trace PREFIX.N" for each launch trace in the
    folder; returns the outputs' dtype names."""
    dtypes = []
    for k, t in enumerate(outs):
        data, dt = _npy_bytes(t)
        dtypes.append(dt)
        _frame(channel, "npy", f"{prefix}.{k}", data)
    if with_traces:
        launches = sorted(n for n in os.listdir(traces) if "-" not in n)
        for n, name in enumerate(launches):
            with open(os.path.join(traces, name), "rb") as f:
                _frame(channel, "trace", f"{prefix}.{n}", f.read())
    return dtypes


def _load_arg(a):
    import numpy as np
    import torch
    if "tensor" not in a:
        return a.get("value")
    arr = np.load(a["tensor"])
    if a.get("dtype") == "bfloat16":
        return torch.from_numpy(arr.view(np.int16).copy()).view(torch.bfloat16)
    return torch.from_numpy(arr.copy())


def main(argv):
    ap = argparse.ArgumentParser(prog="run_mkb.py")
    ap.add_argument("submission")
    ap.add_argument("--task", required=True)
    ap.add_argument("--oprun", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--channel", type=int, required=True)
    ap.add_argument("--soc", default="Ascend910B2")
    a = ap.parse_args(argv)
    a.work = os.path.abspath(a.work)
    sub = a.submission
    with open(a.manifest) as f:
        manifest = json.load(f)

    sys.path.insert(0, os.path.join(HERE, "shims"))
    sys.path.insert(0, os.path.dirname(HERE))
    from kgen_mkb import extract as ex
    from kgen_mkb import ops_client

    project = os.path.join(a.work, "project")
    try:
        info = ex.extract(sub, project)
    except ex.SubmissionError as e:
        _diag(ex.format_error(sub, e))
        return 3
    if not info["functions"]:
        _diag(f"error[submission] {sub}:{info['lines']['python_bind_src'] or 0}: python_bind_src registers no "
              f"function with m.def(\"name\", ...) in PYBIND11_MODULE — custom_ops_lib would be empty")
        return 3
    pydir = os.path.join(a.work, "py")
    os.makedirs(pydir, exist_ok=True)
    ops_client.generate(info["functions"], os.path.join(pydir, "custom_ops_lib.py"))
    sys.path.insert(0, pydir)
    traces = os.path.join(a.work, "traces")
    os.makedirs(traces, exist_ok=True)
    os.environ.update(KGEN_OPRUN=a.oprun, KGEN_MKB_WORK=a.work, KGEN_MKB_PROJECT=project,
                      KGEN_MKB_BIND=info["files"]["bind"], KGEN_MKB_SOC=a.soc,
                      KGEN_MKB_NOTES=os.path.join(a.work, "notes.txt"), KGEN_TRACE_BIN_DIR=traces)

    import torch
    from kgen_mkb import torch_compat
    torch_compat.install()   # PyTorch 2.x functions newer tasks use (scaled_dot_product_attention) on torch 1.13
    torch.set_num_threads(1)

    # The task file, for get_init_inputs() only (its Model is the evaluator's business).
    task_ns = {"__name__": "__kgen_task__", "__file__": os.path.abspath(a.task)}
    try:
        with open(a.task) as f:
            exec(compile(f.read(), a.task, "exec"), task_ns)
        init = list(task_ns["get_init_inputs"]()) if "get_init_inputs" in task_ns else []
    except Exception as e:  # noqa: BLE001
        _diag(f"error[task] {a.task}:1: the task failed to load: {type(e).__name__}: {e}")
        return 2

    model_file = f"<model_src of {sub}>"
    model_ns = {"__name__": "__kgen_model_src__"}
    try:
        exec(compile(info["model_src"] if "model_src" in info else open(info["files"]["model"]).read(),
                     model_file, "exec"), model_ns)
    except Exception as e:  # noqa: BLE001
        line = _src_line(e.__traceback__, model_file, info["model_line"])
        _diag(f"error[submission] {sub}:{line}: model_src failed: {type(e).__name__}: {e}")
        return 3
    if "ModelNew" not in model_ns:
        _diag(f"error[submission] {sub}:{info['model_line']}: model_src does not define class ModelNew")
        return 3

    remap = ex.mapper(sub, info)

    def run_new(fn):
        try:
            return fn(), None
        except ops_client.KgenCallError as e:
            return None, e
        except Exception as e:  # noqa: BLE001
            inner = e
            while inner is not None and not isinstance(inner, ops_client.KgenCallError):
                inner = inner.__cause__ or inner.__context__
            if inner is not None:
                return None, inner
            line = _src_line(e.__traceback__, model_file, info["model_line"])
            tb = traceback.format_exception_only(type(e), e)[-1].strip()
            # A runtime failure, as on the chip (the op built; the model raised while running): not a compile error.
            return None, ops_client.KgenCallError(f"error[model] {sub}:{line}: ModelNew raised {tb} — the op "
                                                  f"compiled, the Python around it failed while running", 3)

    def fail(err):
        _diag(remap(err.text))
        return err.exit_code if err.exit_code in (1, 2, 3) else 3

    first = True
    with torch.no_grad():
        for group in manifest["groups"]:
            torch.manual_seed(group["seed"])
            new_model, err = run_new(lambda: model_ns["ModelNew"](*init))
            if err:
                return fail(err)
            for trial in group["trials"]:
                args = [_load_arg(x) for x in trial["args"]]
                for name in os.listdir(traces):
                    os.remove(os.path.join(traces, name))
                ops_client.returned.clear()
                out, err = run_new(lambda: new_model(*args))
                if err:
                    return fail(err)
                outs = _flatten(out)
                # Every tensor ModelNew returns must be what a custom_ops_lib call returned (or a view of it),
                # unchanged: a result PyTorch computed, or a kernel output edited afterwards, is not the kernel's.
                for k, t in enumerate(outs):
                    if isinstance(t, torch.Tensor) and not ops_client.produced(t):
                        _diag(f"cheating {sub}:{info['model_line']}: output {k} of ModelNew.forward is not a tensor "
                              f"a custom_ops_lib call returned (nor a view of one, unchanged) — PyTorch computed it, "
                              f"not the AscendC kernel")
                        return 3
                dtypes = send_outputs(a.channel, trial["id"], outs, traces, first)
                first = False
                notes = []
                notes_path = os.path.join(a.work, "notes.txt")
                if os.path.exists(notes_path):
                    for ln in open(notes_path).read().splitlines():
                        if ln.strip() and remap(ln) not in notes:
                            notes.append(remap(ln))
                _frame(a.channel, "json", trial["id"],
                       json.dumps({"dtypes": dtypes, "notes": notes, "kernel_calls": ops_client.stats["calls"]}).encode())
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
