"""The candidate side of an NPUKernelBench evaluation, run by the evaluator inside the candidate's sandbox: builds
kernel_gen_ops from the task's validation/pybind.cpp with the harness's replacements (aclnnCustomOp -> aclnn<Op>,
custom_pybind_api -> <op_snake>; framework/batch_compile.py), each call running the op project on kgen's emulator
through `kgen-oprun call`, then runs the task's ModelNew(*init)(*inputs) on the inputs the trusted side saved.
The reference never runs here and the verdict is not made here: the evaluator judges the outputs it receives.

    run_npukb.py TASK PROJECT --inputs DIR --cases 0,3 --oprun PATH --work DIR --channel FD [--soc S]

Frames (src/sandbox/channel.h): per case "npy c<i>.<k>" for each output, "trace c<i>.<n>" for each launch of the
first case, then "json c<i>" with the output dtypes and notes. Exit status: 0 done, 3 the candidate failed
(diagnostics on stderr), 2 usage.
"""
import argparse
import os
import re
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv):
    ap = argparse.ArgumentParser(prog="run_npukb.py")
    ap.add_argument("task")
    ap.add_argument("project")
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--cases", required=True)
    ap.add_argument("--oprun", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--channel", type=int, required=True)
    ap.add_argument("--soc", default="Ascend910B2")
    a = ap.parse_args(argv)
    work = os.path.abspath(a.work)
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "kgen_mkb", "shims"))
    sys.path.insert(0, os.path.join(HERE, "shims"))   # NPUKernelBench's framework.utils
    sys.path.insert(0, os.path.dirname(HERE))
    from kgen_mkb import ops_client
    from kgen_mkb.run_mkb import _flatten, _frame, send_outputs
    from kgen_npukb.task import Task, TaskError

    try:
        task = Task(a.task)
    except TaskError as e:
        print(f"error[task] {e}", file=sys.stderr)
        return 2
    # The binding as the harness compiles it: the task's pybind.cpp with two names replaced (same lines).
    if not os.path.isfile(task.pybind_path):
        print(f"error[task] {task.pybind_path}:1: the task has no validation/pybind.cpp", file=sys.stderr)
        return 2
    text = task.binding_text()
    os.makedirs(os.path.join(work, "bind"), exist_ok=True)
    bind = os.path.join(work, "bind", "op.cpp")
    with open(bind, "w", encoding="utf-8") as f:
        f.write(text)
    functions = re.findall(r'\bm\.def\(\s*"(\w+)"', text)
    if not functions:
        print(f"error[task] {task.pybind_path}:1: registers no function with m.def(\"name\", ...)", file=sys.stderr)
        return 2
    pydir = os.path.join(work, "py")
    os.makedirs(pydir, exist_ok=True)
    ops_client.generate(functions, os.path.join(pydir, "kernel_gen_ops.py"))
    sys.path.insert(0, pydir)
    traces = os.path.join(work, "traces")
    os.makedirs(traces, exist_ok=True)
    notes_path = os.path.join(work, "notes.txt")
    os.environ.update(KGEN_OPRUN=a.oprun, KGEN_MKB_WORK=work, KGEN_MKB_PROJECT=os.path.abspath(a.project),
                      KGEN_MKB_BIND=bind, KGEN_MKB_SOC=a.soc, KGEN_MKB_NOTES=notes_path, KGEN_TRACE_BIN_DIR=traces,
                      KGEN_MKB_TRUSTED_BIND="1")
    import json
    import torch
    from kgen_npukb.cpu_half import low_precision_fallback
    torch.set_num_threads(1)
    try:
        module, _ = task.load_modules()
    except Exception as e:  # noqa: BLE001
        print(f"error[task] {task.module_path}:1: module.py failed to load: {type(e).__name__}: {e}", file=sys.stderr)
        return 2

    first = True
    with torch.no_grad():
        for i in [int(c) for c in a.cases.split(",") if c != ""]:
            saved = torch.load(os.path.join(a.inputs, f"case_{i}.pt"))
            for name in os.listdir(traces):
                os.remove(os.path.join(traces, name))
            # Only the first case's launches are modeled (send_outputs): the others write no trace (a [1024, 512,
            # 128] case's would pass the file-size limit).
            os.environ["KGEN_TRACE_BIN_DIR"] = traces if first else ""
            try:
                with low_precision_fallback():   # ModelNew's own torch ops in float16 on the CPU (cpu_half.py)
                    out = module.ModelNew(*saved["init"])(*saved["inputs"])
            except Exception as e:  # noqa: BLE001
                inner = e
                while inner is not None and not isinstance(inner, ops_client.KgenCallError):
                    inner = inner.__cause__ or inner.__context__
                if inner is not None:
                    text = inner.text
                    # A project that does not build fails every case: stop. Anything else fails this case only.
                    if inner.exit_code not in (3,) or re.match(r"(error\[(compile|kernel-name|submission)\]|cheating )",
                                                               text):
                        print(text, file=sys.stderr)
                        return inner.exit_code if inner.exit_code in (1, 2, 3) else 3
                else:
                    tb = traceback.extract_tb(e.__traceback__)
                    where = next((f"{fr.filename}:{fr.lineno}" for fr in reversed(tb)
                                  if fr.filename.startswith(task.dir)), f"{task.module_path}:1")
                    text = (f"error[model] {where}: case {i}: ModelNew raised {type(e).__name__}: {e} — the op "
                            f"project built, the call failed while running")
                _frame(a.channel, "json", f"c{i}", json.dumps({"error": text[:4000]}).encode())
                continue
            dtypes = send_outputs(a.channel, f"c{i}", _flatten(out), traces, first)
            first = False
            notes = []
            if os.path.exists(notes_path):
                notes = [ln for ln in open(notes_path).read().splitlines() if ln.strip()][:20]
                os.remove(notes_path)
            _frame(a.channel, "json", f"c{i}", json.dumps({"dtypes": dtypes, "notes": notes}).encode())
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
