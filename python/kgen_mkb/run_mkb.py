"""The driver of `kgen op run-mkb SUBMISSION.py --task REFERENCE.py`: runs a MultiKernelBench AscendC submission's
ModelNew (its custom_ops_lib calls run the op project on kgen's emulator) against the reference task's Model, as
MultiKernelBench's correctness check does (utils/correctness.py): torch.manual_seed(seed) before Model(*init) and
again before ModelNew(*init), then `trials` calls of get_inputs() (not reseeded), reference first, under no_grad,
compared with torch.allclose(ref, new, atol, rtol) (default 1e-4 / 1e-4, MultiKernelBench's since 2026-01; the
paper used 1e-2 / 1e-2).

    run_mkb.py SUB.py --task REF.py --oprun PATH --work DIR [--soc S] [--seed N] [--trials N] [--atol A]
               [--rtol R] [--json]
Exit status: 0 pass, 3 the submission is wrong (diagnostics, mismatch), 2 usage, 1 internal.
"""
import argparse
import json
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))


def _diag(line):
    print(line, file=sys.stderr)


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


def compare(ref, new, atol, rtol):
    """Returns a dict: ok, and for a mismatch or the worst output: index, got, expected, errors."""
    import torch
    refs, news = _flatten(ref), _flatten(new)
    res = {"ok": True, "max_abs_err": 0.0, "max_rel_err": 0.0, "outputs": len(refs)}
    if len(refs) != len(news):
        return {"ok": False, "reason": f"ModelNew returned {len(news)} output(s), the reference {len(refs)}"}
    for k, (r, n) in enumerate(zip(refs, news)):
        if not isinstance(r, torch.Tensor):
            if r != n:
                return {"ok": False, "reason": f"output {k}: {n!r} differs from the reference {r!r}"}
            continue
        if not isinstance(n, torch.Tensor):
            return {"ok": False, "reason": f"output {k}: ModelNew returned a {type(n).__name__}, not a tensor"}
        if tuple(r.shape) != tuple(n.shape):
            return {"ok": False, "reason": f"output {k}: shape {list(n.shape)} differs from the reference's "
                                           f"{list(r.shape)}"}
        if r.dtype == torch.bool:
            if not torch.equal(r, n.to(torch.bool)):
                bad = (r != n.to(torch.bool)).nonzero()
                return {"ok": False, "reason": f"output {k}: bool values differ at index {bad[0].tolist()}"}
            continue
        rf, nf = r.detach().double(), n.detach().double()
        if n.dtype != r.dtype:
            res.setdefault("notes", []).append(f"output {k}: dtype {n.dtype} differs from the reference's {r.dtype}")
        diff = (rf - nf).abs()
        nan_mismatch = torch.isnan(rf) != torch.isnan(nf)
        diff = torch.where(torch.isnan(rf) & torch.isnan(nf), torch.zeros_like(diff), diff)
        rel = diff / rf.abs().clamp_min(1e-12)
        if diff.numel():
            finite = torch.isfinite(diff)
            if finite.any():
                res["max_abs_err"] = max(res["max_abs_err"], float(diff[finite].max()))
                res["max_rel_err"] = max(res["max_rel_err"], float(rel[finite].max()))
        bad = (diff > atol + rtol * rf.abs()) | nan_mismatch | (~torch.isfinite(diff) & ~(rf == nf))
        if bad.any():
            idx = bad.nonzero()[0].tolist()
            res.update(ok=False, output=k, index=idx, got=float(nf[tuple(idx)]), expected=float(rf[tuple(idx)]),
                       mismatches=int(bad.sum()), elements=int(bad.numel()))
            res["reason"] = (f"output {k}: {res['mismatches']} of {res['elements']} elements differ; first at index "
                             f"{idx}: got {res['got']:.8g}, expected {res['expected']:.8g}")
            return res
    return res


def main(argv):
    ap = argparse.ArgumentParser(prog="kgen op run-mkb")
    ap.add_argument("submission")
    ap.add_argument("--task", required=True)
    ap.add_argument("--oprun", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--soc", default="Ascend910B2")
    ap.add_argument("--seed", type=int, default=1024)
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--atol", type=float, default=1e-4)
    ap.add_argument("--rtol", type=float, default=1e-4)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    sub = a.submission
    t_start = time.perf_counter()

    sys.path.insert(0, os.path.join(HERE, "shims"))
    sys.path.insert(0, os.path.dirname(HERE))
    from kgen_mkb import extract as ex
    from kgen_mkb import ops_client

    project = os.path.join(a.work, "project")
    try:
        info = ex.extract(sub, project)
    except ex.SubmissionError as e:
        _diag(ex.format_error(sub, e))
        if a.json:
            print(json.dumps({"submission": sub, "task": a.task, "verdict": "error", "error": ex.format_error(sub, e)},
                             indent=1))
        return 3
    if not info["functions"]:
        _diag(f"error[submission] {sub}:{info['lines']['python_bind_src'] or 0}: python_bind_src registers no "
              f"function with m.def(\"name\", ...) in PYBIND11_MODULE — custom_ops_lib would be empty")
        return 3
    pydir = os.path.join(a.work, "py")
    os.makedirs(pydir, exist_ok=True)
    ops_client.generate(info["functions"], os.path.join(pydir, "custom_ops_lib.py"))
    sys.path.insert(0, pydir)
    os.environ.update(KGEN_OPRUN=a.oprun, KGEN_MKB_WORK=a.work, KGEN_MKB_PROJECT=project,
                      KGEN_MKB_BIND=info["files"]["bind"], KGEN_MKB_SOC=a.soc,
                      KGEN_MKB_NOTES=os.path.join(a.work, "notes.txt"))

    import torch
    from kgen_mkb import torch_compat
    torch_compat.install()   # PyTorch 2.x functions newer tasks use (scaled_dot_product_attention) on torch 1.13

    # The reference task (KernelBench format).
    task_ns = {"__name__": "__kgen_task__", "__file__": os.path.abspath(a.task)}
    try:
        with open(a.task) as f:
            exec(compile(f.read(), a.task, "exec"), task_ns)
    except OSError as e:
        _diag(f"error: cannot read the task {a.task}: {e.strerror}")
        return 2
    except Exception as e:  # noqa: BLE001
        _diag(f"error: the task {a.task} failed to load: {type(e).__name__}: {e}")
        return 2
    for need in ("Model", "get_inputs", "get_init_inputs"):
        if need not in task_ns:
            _diag(f"error: the task {a.task} does not define {need} (KernelBench format: class Model, get_inputs(), "
                  f"get_init_inputs())")
            return 2

    # model_src, exec'd as MultiKernelBench does (it imports torch_npu and custom_ops_lib).
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

    report = {"submission": sub, "task": a.task, "op": info["op"], "soc": a.soc, "seed": a.seed, "trials": a.trials,
              "atol": a.atol, "rtol": a.rtol, "functions": info["functions"]}

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
            return None, ops_client.KgenCallError(f"error[submission] {sub}:{line}: ModelNew failed: {tb}", 3)

    remap = ex.mapper(sub, info)

    def fail(err):
        err.text = remap(err.text)
        sys.stdout.flush()
        _diag(err.text)
        if a.json:
            report.update(verdict="error", error=err.text)
            print(json.dumps(report, indent=1))
        return err.exit_code if err.exit_code in (1, 2, 3) else 3

    def task_failed(what, e):
        _diag(f"error: the reference task {a.task} failed in {what}: {type(e).__name__}: {e}")
        return 2

    try:
        init = task_ns["get_init_inputs"]()
        torch.manual_seed(a.seed)
        ref_model = task_ns["Model"](*init)
    except Exception as e:  # noqa: BLE001
        return task_failed("Model(*get_init_inputs())", e)
    torch.manual_seed(a.seed)
    new_model, err = run_new(lambda: model_ns["ModelNew"](*init))
    if err:
        return fail(err)
    worst = {"max_abs_err": 0.0, "max_rel_err": 0.0}
    trials = []
    verdict = "pass"
    with torch.no_grad():
        for t in range(a.trials):
            try:
                inputs = task_ns["get_inputs"]()
                ref = ref_model(*inputs)
            except Exception as e:  # noqa: BLE001
                return task_failed("get_inputs() / Model.forward", e)
            new, err = run_new(lambda: new_model(*inputs))
            if err:
                return fail(err)
            c = compare(ref, new, a.atol, a.rtol)
            c["trial"] = t
            trials.append(c)
            for k in ("max_abs_err", "max_rel_err"):
                worst[k] = max(worst[k], c.get(k, 0.0))
            if not c["ok"]:
                verdict = "fail"
                break
    report.update(verdict=verdict, max_abs_err=worst["max_abs_err"], max_rel_err=worst["max_rel_err"],
                  trials_run=len(trials), kernel_calls=ops_client.stats["calls"],
                  call_seconds=round(ops_client.stats["seconds"], 3),
                  seconds=round(time.perf_counter() - t_start, 3))
    bad = trials[-1] if verdict == "fail" else None
    notes_path = os.path.join(a.work, "notes.txt")
    if os.path.exists(notes_path):
        seen = []
        for ln in open(notes_path).read().splitlines():
            if ln.strip() and ln not in seen:
                seen.append(ln)
        report["notes"] = [remap(n) for n in seen]
    if bad:
        report["mismatch"] = {k: bad[k] for k in ("trial", "output", "index", "got", "expected", "mismatches",
                                                   "elements", "reason") if k in bad}
    if a.json:
        print(json.dumps(report, indent=1))
    else:
        for n in report.get("notes", []):
            print(remap(n), file=sys.stderr)
        print(f"{info['op']}: {len(trials)} trial(s) on {a.soc}, seed {a.seed}, atol {a.atol:g}, rtol {a.rtol:g}")
        print(f"max abs err {worst['max_abs_err']:.3e}, max rel err {worst['max_rel_err']:.3e}")
    sys.stdout.flush()
    if bad:
        _diag(f"error[mismatch] {sub}: trial {bad['trial']}: {bad['reason']} (atol {a.atol:g}, rtol {a.rtol:g}) — "
              f"ModelNew's output differs from the reference Model's")
        if not a.json:
            print("FAIL")
        return 3
    if not a.json:
        print("PASS")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
