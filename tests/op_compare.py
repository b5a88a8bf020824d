#!/usr/bin/python3
"""Random inputs for the op projects of examples/op_projects and a check of kgen's outputs against PyTorch.

  op_compare.py gen OP DTYPE SHAPE DIR [--seed N] [--attr NAME=VALUE ...] [--no-bias]
      writes DIR/<input>.npy and DIR/case.json, prints the `kgen op run` arguments (--input NAME=FILE, --attr ...)
      one per line.
  op_compare.py check DIR OUTDIR [DIR OUTDIR ...]
      compares each OUTDIR/<output>.npy with the PyTorch reference; prints one line per case (`ok   ...` or
      `FAIL ...`) with the max errors; exit 1 when an element of any case is outside the tolerance. Many cases in
      one call import torch once (about 1.5 s a call).

OP: leaky_relu, add_broadcast, reduce_sum, softmax, log_softmax, layer_norm, rms_norm, matmul, or sum:IN1,IN2,..:OUT1,.. for projects
made by `kgen op new` (every output = the elementwise sum of the inputs). DTYPE: float32 or float16. SHAPE:
comma-separated dims; matmul: M,K,N; add_broadcast/reduce_sum/softmax/log_softmax/layer_norm/rms_norm: [..., N].

Tolerance: |got - ref| <= atol + rtol * |ref| elementwise, the reference computed in float64 from the very
inputs given (float16 inputs upcast exactly). float32: 1e-4 / 1e-4 (elementwise ops, softmax, log softmax, layer
norm, rms norm);
reductions and matmul sum in another order than float64 does: atol 1e-4 * sqrt(K) (K the summed length),
rtol 1e-4. float16 outputs: 1e-2 / 1e-2 (one float16 rounding of the result is 5e-4 relative).
"""
import json
import math
import os
import sys

import numpy as np


def shape_of(text):
    return [int(d) for d in text.split(",") if d]


def attrs_of(items):
    out = {}
    for a in items:
        k, v = a.split("=", 1)
        out[k] = float(v)
    return out


def make_inputs(op, dt, shape, rng, bias=True):
    def randn(*s, scale=1.0):
        return (rng.standard_normal(s) * scale).astype(dt)

    if op == "leaky_relu":
        return {"x": randn(*shape)}
    if op == "add_broadcast":
        return {"x": randn(*shape), "bias": randn(shape[-1])}
    if op == "reduce_sum":
        return {"x": randn(*shape)}
    if op == "softmax":
        return {"x": randn(*shape, scale=3.0)}
    if op == "log_softmax":
        return {"x": randn(*shape, scale=3.0)}
    if op == "layer_norm":
        return {"x": randn(*shape, scale=2.0) + dt(0.5), "gamma": randn(shape[-1]), "beta": randn(shape[-1])}
    if op == "rms_norm":
        return {"x": randn(*shape, scale=2.0) + dt(0.5), "gamma": randn(shape[-1])}
    if op == "matmul":
        m, k, n = shape
        ins = {"a": randn(m, k), "b": randn(k, n)}
        if bias:
            ins["bias"] = (rng.standard_normal(n)).astype(np.float32)
        return ins
    if op.startswith("sum:"):
        _, ins, _ = op.split(":")
        return {name: randn(*shape) for name in ins.split(",")}
    raise SystemExit("op_compare.py: unknown op " + op)


def reference(op, ins, attrs):
    """{output name: (float64 array, summed length for the tolerance or 0)}"""
    import torch   # only `check` needs torch: `gen` stays a quick numpy script (the import is ~1.5 s per call)
    import torch.nn.functional as F
    t = {k: torch.from_numpy(v.astype(np.float64)) for k, v in ins.items()}
    if op == "leaky_relu":
        return {"y": (F.leaky_relu(t["x"], attrs.get("negative_slope", 0.01)), 0)}
    if op == "add_broadcast":
        return {"y": (t["x"] + t["bias"], 0)}
    if op == "reduce_sum":
        return {"y": (t["x"].sum(dim=-1), t["x"].shape[-1])}
    if op == "softmax":
        return {"y": (torch.softmax(t["x"], dim=-1), 0)}
    if op == "log_softmax":
        return {"y": (torch.log_softmax(t["x"], dim=-1), 0)}
    if op == "layer_norm":
        n = t["x"].shape[-1]
        return {"y": (F.layer_norm(t["x"], (n,), t["gamma"], t["beta"], attrs.get("epsilon", 1e-5)), 0)}
    if op == "rms_norm":
        x = t["x"]
        rms = torch.sqrt((x * x).mean(dim=-1, keepdim=True) + attrs.get("epsilon", 1e-6))
        return {"y": (x / rms * t["gamma"], 0)}
    if op == "matmul":
        c = t["a"] @ t["b"]
        if "bias" in t:
            c = c + t["bias"]
        return {"c": (c, t["a"].shape[1])}
    if op.startswith("sum:"):
        _, names, outs = op.split(":")
        s = sum(t[n] for n in names.split(","))
        return {o: (s, 0) for o in outs.split(",")}
    raise SystemExit("op_compare.py: unknown op " + op)


def gen(argv):
    op, dtype, shape, d = argv[:4]
    rest = argv[4:]
    seed, attrs, bias = 1234, [], True
    i = 0
    while i < len(rest):
        if rest[i] == "--seed":
            seed = int(rest[i + 1]); i += 2
        elif rest[i] == "--attr":
            attrs.append(rest[i + 1]); i += 2
        elif rest[i] == "--no-bias":
            bias = False; i += 1
        else:
            raise SystemExit("op_compare.py gen: unknown argument " + rest[i])
    dt = {"float32": np.float32, "float16": np.float16}[dtype]
    rng = np.random.default_rng(seed)
    ins = make_inputs(op, dt, shape_of(shape), rng, bias)
    os.makedirs(d, exist_ok=True)
    args = []
    for name, arr in ins.items():
        path = os.path.join(d, name + ".npy")
        np.save(path, arr)
        args += ["--input", name + "=" + path]
    for a in attrs:
        args += ["--attr", a]
    with open(os.path.join(d, "case.json"), "w") as f:
        json.dump({"op": op, "dtype": dtype, "shape": shape, "attrs": attrs, "inputs": list(ins)}, f)
    print("\n".join(args))


def check_all(argv):
    if len(argv) < 2 or len(argv) % 2:
        raise SystemExit("op_compare.py check: expected pairs DIR OUTDIR")
    results = [check_case(argv[i], argv[i + 1]) for i in range(0, len(argv), 2)]
    return 1 if any(results) else 0


def check_case(d, out):
    with open(os.path.join(d, "case.json")) as f:
        case = json.load(f)
    ins = {n: np.load(os.path.join(d, n + ".npy")) for n in case["inputs"]}
    refs = reference(case["op"], ins, attrs_of(case["attrs"]))
    ok = True
    report = []
    for name, (ref, summed) in refs.items():
        path = os.path.join(out, name + ".npy")
        if not os.path.exists(path):
            print(f"FAIL {case['op']} {case['dtype']} [{case['shape']}]: no output {path}")
            return 1
        got = np.load(path)
        ref = ref.numpy()
        if tuple(got.shape) != tuple(ref.shape):
            print(f"FAIL {case['op']} {case['dtype']} [{case['shape']}]: {name} has shape {got.shape}, "
                  f"PyTorch's is {ref.shape}")
            return 1
        if got.dtype == np.float16:
            atol, rtol = 1e-2, 1e-2
        else:
            atol, rtol = 1e-4 * max(1.0, math.sqrt(summed)), 1e-4
        g = got.astype(np.float64)
        err = np.abs(g - ref)
        bad = ~(err <= atol + rtol * np.abs(ref))   # NaN counts as bad
        rel = err / np.maximum(np.abs(ref), 1e-6)
        max_abs = float(np.nanmax(err)) if err.size else 0.0
        max_rel = float(np.nanmax(rel[np.abs(ref) > 1e-3])) if np.any(np.abs(ref) > 1e-3) else 0.0
        report.append(f"{name}: max abs {max_abs:.3g} max rel {max_rel:.3g} (atol {atol:.3g} rtol {rtol:.3g}, "
                      f"{got.dtype})")
        if bad.any():
            ok = False
            idx = np.unravel_index(int(np.argmax(bad)), err.shape)
            report.append(f"  first bad element {tuple(int(i) for i in idx)}: got {g[idx]} want {ref[idx]}; "
                          f"{int(bad.sum())} of {bad.size} outside")
    print(("ok   " if ok else "FAIL ") + f"{case['op']} {case['dtype']} [{case['shape']}] {' '.join(case['attrs'])}: "
          + "; ".join(report))
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in ("gen", "check"):
        print(__doc__)
        sys.exit(2)
    if sys.argv[1] == "gen":
        gen(sys.argv[2:])
        sys.exit(0)
    sys.exit(check_all(sys.argv[2:]))
