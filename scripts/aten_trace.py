#!/usr/bin/python3
"""Record the aten ops of one forward of a KernelBench/MultiKernelBench-format task.

Usage: /usr/bin/python3 scripts/aten_trace.py TASK.py [--seed N] [--out FILE] [--perf | --case NAME]

TASK.py defines `class Model(nn.Module)`, `get_inputs()` and `get_init_inputs()`. The script seeds torch,
builds Model(*get_init_inputs()), runs model(*get_inputs()) once under a TorchDispatchMode (with FakeTensors:
shapes only, no memory; if that fails, e.g. data-dependent shapes, for real on the CPU) and
prints JSON: {"task": ..., "ops": [{"name", "inputs": [{"shape","dtype"}], "outputs": [...], "flops",
"bytes", "cls"}]}. flops/bytes are what the op must compute and move (inputs read once, outputs written
once); cls is the op class the eager model uses (matmul, conv, elementwise, reduction, softmax, norm,
view, copy). Ops that only change metadata (view, t, expand, ...) or only allocate (empty) get cls "view" and
0 bytes. The ops are those of the CPU dispatch after autograd and composite decomposition (linear -> t + addmm);
torch_npu dispatches the same aten ops, but may fuse or split some (documented in docs/perf-model.md).
With --perf (a kgen task file's PERF shape: its overrides of the module constants) or --case NAME (one of its CASES,
named as `kgen tasks list` names them) the forward is recorded at that shape; "shape" in the JSON names it.
Needs Debian's python3-torch (1.13).
"""
import importlib.util
import json
import math
import sys

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

VIEW_OPS = {
    "view", "_unsafe_view", "reshape", "t", "transpose", "permute", "expand", "squeeze", "unsqueeze",
    "slice", "select", "as_strided", "alias", "detach", "unbind", "split", "split_with_sizes", "chunk",
    "narrow", "flatten", "unflatten", "lift_fresh", "_reshape_alias", "view_as", "expand_as", "numpy_T",
    "diagonal", "unfold",
    # allocations: no kernel on the NPU either
    "empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided",
}
MATMUL_OPS = {"mm", "addmm", "bmm", "baddbmm", "matmul", "linear", "mv", "addmv", "dot", "_linear"}
CONV_OPS = {"convolution", "_convolution", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
            "conv_transpose2d", "conv_transpose3d", "mkldnn_convolution", "_slow_conv2d_forward",
            "slow_conv3d_forward", "slow_conv_transpose2d", "slow_conv_transpose3d", "slow_conv_dilated2d",
            "_mkldnn_convolution"}
SOFTMAX_OPS = {"_softmax", "softmax", "_log_softmax", "log_softmax"}
NORM_OPS = {"native_layer_norm", "layer_norm", "native_batch_norm", "_native_batch_norm_legit",
            "_native_batch_norm_legit_no_training", "batch_norm", "native_group_norm", "group_norm",
            "instance_norm", "_batch_norm_impl_index", "rms_norm"}
REDUCTION_OPS = {"sum", "mean", "amax", "amin", "max", "min", "prod", "argmax", "argmin", "var", "std",
                 "var_mean", "std_mean", "norm", "linalg_vector_norm", "logsumexp", "cumsum", "cumprod",
                 "all", "any", "sort", "topk", "kthvalue", "median", "mode", "nansum", "count_nonzero"}
COPY_OPS = {"copy_", "clone", "contiguous", "_to_copy", "to", "cat", "stack", "index_select", "gather",
            "scatter", "index", "masked_fill", "where", "repeat", "pad", "constant_pad_nd", "flip", "roll",
            "fill_", "zero_", "zeros_like", "ones_like", "full_like", "new_zeros", "zeros", "ones", "full", "arange", "embedding", "tril", "triu"}
# elementwise ops that cost several vector passes per element (transcendentals, division)
TRANSCENDENTAL = {"exp", "log", "sqrt", "rsqrt", "div", "sigmoid", "tanh", "gelu", "silu", "mish", "softplus",
                  "elu", "selu", "celu", "pow", "log1p", "expm1", "erf", "sin", "cos", "reciprocal",
                  "hardswish", "logit", "atan", "asin", "acos", "log2", "log10", "exp2", "gelu_backward"}


def short_name(func):
    # OpOverload: torch.ops.aten.mm.default -> "mm"
    s = getattr(func, "__name__", None) or str(func)
    pk = getattr(func, "overloadpacket", None)
    if pk is not None:
        s = getattr(pk, "__name__", s)
    s = s.split(".")[0]
    return s


def tensors(x):
    flat, _ = tree_flatten(x)
    return [t for t in flat if isinstance(t, torch.Tensor)]


def desc(t):
    return {"shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", "")}


def nbytes(t):
    return t.numel() * t.element_size()


def classify(name):
    base = name.rstrip("_") if name not in ("copy_", "fill_", "zero_") else name
    if name in VIEW_OPS or base in VIEW_OPS:
        return "view"
    if base in MATMUL_OPS:
        return "matmul"
    if base in CONV_OPS:
        return "conv"
    if base in SOFTMAX_OPS:
        return "softmax"
    if base in NORM_OPS:
        return "norm"
    if base in REDUCTION_OPS:
        return "reduction"
    if name in COPY_OPS or base in COPY_OPS:
        return "copy"
    return "elementwise"


def matmul_flops(name, ins, outs):
    out = outs[0] if outs else None
    if out is None:
        return 0
    if name in ("mm", "addmm", "bmm", "baddbmm", "matmul", "linear", "_linear"):
        # k = the contracted dimension: last dim of the first matrix operand
        mats = [t for t in ins if t.dim() >= 2]
        if not mats:
            return 0
        a = mats[0] if name not in ("addmm", "baddbmm") or len(mats) < 3 else mats[1]
        k = a.shape[-1]
        f = 2 * out.numel() * k
        if name in ("addmm", "baddbmm"):
            f += out.numel()
        return f
    if name in ("mv", "addmv"):
        mats = [t for t in ins if t.dim() == 2]
        return 2 * mats[0].numel() if mats else 0
    if name == "dot":
        return 2 * ins[0].numel()
    return 0


def conv_flops(args, ins, outs):
    if len(ins) < 2 or not outs:
        return 0
    w = ins[1]
    out = outs[0]
    transposed = False
    groups = 1
    # aten.convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
    if len(args) >= 9 and isinstance(args[6], bool):
        transposed = args[6]
        groups = int(args[8])
    if transposed:
        x = ins[0]
        # every input element multiplies a (C_out/groups * kernel) slice of the weight
        per = w.numel() // w.shape[0]
        return 2 * x.numel() * per
    per_out = w.numel() // w.shape[0]   # C_in/groups * prod(kernel)
    return 2 * out.numel() * per_out


def op_cost(name, func, args, ins, outs, cls):
    read = sum(nbytes(t) for t in ins)
    written = sum(nbytes(t) for t in outs)
    if cls == "view":
        return 0, 0
    if cls == "matmul":
        return matmul_flops(name, ins, outs), read + written
    if cls == "conv":
        return conv_flops(args, ins, outs), read + written
    n_out = max((t.numel() for t in outs), default=0)
    n_in = max((t.numel() for t in ins), default=0)
    if cls == "softmax":
        return 5 * n_in, read + written          # max, sub, exp, sum, div
    if cls == "norm":
        return 8 * n_in, read + written          # mean, var, normalise, affine
    if cls == "reduction":
        return n_in, read + written
    if cls == "copy":
        return 0, read + written
    # elementwise: one op per output element; transcendentals count as several
    per = 4 if name.rstrip("_") in TRANSCENDENTAL else 1
    return per * max(n_out, n_in), read + written


def run_upcast(func, args, kwargs, err):
    low = [t.dtype for t in tensors((args, kwargs)) if t.dtype in (torch.float16, torch.bfloat16)]
    if not low:
        raise err
    def up(x):
        if isinstance(x, torch.Tensor) and x.dtype in (torch.float16, torch.bfloat16):
            return x.float()
        if isinstance(x, (list, tuple)):
            return type(x)(up(y) for y in x)
        return x
    out = func(*up(list(args)), **{k: up(v) for k, v in kwargs.items()})
    def down(x):
        if isinstance(x, torch.Tensor) and x.dtype == torch.float32:
            return x.to(low[0])
        if isinstance(x, (list, tuple)):
            return type(x)(down(y) for y in x)
        return x
    return down(out)


class Recorder(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        try:
            out = func(*args, **kwargs)
        except RuntimeError as e:
            # CPU torch lacks many float16/bfloat16 kernels ("not implemented for 'Half'"): compute in float32
            # and cast back; the op is recorded with its real dtypes.
            if "not implemented for" not in str(e):
                raise
            out = run_upcast(func, args, kwargs, e)
        if not str(func).startswith("aten."):
            return out
        name = short_name(func)
        ins = tensors((args, kwargs))
        outs = tensors(out)
        cls = classify(name)
        flops, byts = op_cost(name, func, args, ins, outs, cls)
        op = {
            "name": name,
            "overload": str(func),
            "cls": cls,
            "inputs": [desc(t) for t in ins],
            "outputs": [desc(t) for t in outs],
            "flops": int(flops),
            "bytes": int(byts),
        }
        if cls == "matmul" and outs and flops:
            # batch, m, n, k of the product (batch folded from leading output dims)
            o = outs[0]
            n = o.shape[-1] if o.dim() >= 1 else 1
            m = o.shape[-2] if o.dim() >= 2 else 1
            batch = o.numel() // max(1, m * n)
            k = matmul_flops(name, ins, outs) // max(1, 2 * o.numel())
            op["bmnk"] = [int(batch), int(m), int(n), int(k)]
        self.ops.append(op)
        return out


def load_task(path):
    spec = importlib.util.spec_from_file_location("kgen_task", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for need in ("Model", "get_inputs", "get_init_inputs"):
        if not hasattr(mod, need):
            raise SystemExit(f"aten_trace: {path} lacks {need} (KernelBench format: class Model, get_inputs, get_init_inputs)")
    return mod


def load_shape(path, perf, case):
    """The task's module namespace at its PERF shape (perf) or at case NAME, and the shape's name. Errors are a
    SystemExit naming the file and what it offers."""
    import os
    import types
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
    from kgen_eval import tasks as T
    task = T.Task(os.path.basename(path), "", 0, path, "kgen")
    T._parse_kgen_like(path, task, need_level=False)
    if perf:
        if task.perf is None:
            raise SystemExit(f"aten_trace: {path} has no PERF = dict(...) (the perf shape of kgen's task format, "
                             f"docs/benchmark.md \"Two sizes per task\"): record it at its own sizes without --perf")
        overrides = dict(task.perf)
        name = ("the perf shape " + T._case_name(task.perf) if overrides else
                "the perf shape = the sizes as written (a file in KernelBench's format is timed at its own sizes)")
    else:
        try:
            c = T.find_case(task, case)
        except KeyError:
            raise SystemExit(f"aten_trace: {path} has no case {case!r}; its cases: "
                             f"{', '.join(c.name for c in task.cases)}")
        overrides, name = dict(c.overrides), "case " + c.name
    ns = T._module_namespace(task, overrides)
    return types.SimpleNamespace(**ns), name


def record(mod, seed, fake):
    """Runs one forward under the recorder. fake: inputs, parameters and buffers are FakeTensors (shapes and dtypes
    only, no memory, no arithmetic), so KernelBench's large shapes cost nothing."""
    torch.manual_seed(seed)
    model = mod.Model(*mod.get_init_inputs())
    model.eval()
    torch.manual_seed(seed)
    rec = Recorder()
    with torch.no_grad():
        if fake:
            from torch._subclasses.fake_tensor import FakeTensorMode
            from torch.nn.utils.stateless import functional_call
            with FakeTensorMode() as fm:
                inputs = mod.get_inputs()   # torch.rand & co. under the mode make FakeTensors
                state = {n: fm.from_tensor(t) for n, t in list(model.named_parameters()) + list(model.named_buffers())}
                with rec:
                    functional_call(model, state, tuple(inputs))
        else:
            inputs = mod.get_inputs()
            with rec:
                model(*inputs)
    return rec.ops


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) >= 2 else 2
    path = argv[1]
    seed = 0
    if "--seed" in argv:
        seed = int(argv[argv.index("--seed") + 1])
    shape = "the sizes as written"
    if "--perf" in argv or "--case" in argv:
        if "--perf" in argv and "--case" in argv:
            raise SystemExit("aten_trace: --perf and --case name two shapes; give one")
        mod, shape = load_shape(path, "--perf" in argv, argv[argv.index("--case") + 1] if "--case" in argv else None)
        for need in ("Model", "get_inputs", "get_init_inputs"):
            if not hasattr(mod, need):
                raise SystemExit(f"aten_trace: {path} lacks {need} (KernelBench format: class Model, get_inputs, "
                                 f"get_init_inputs)")
    else:
        mod = load_task(path)
    mode = "fake"
    try:
        ops = record(mod, seed, fake=True)
    except Exception as e:  # ops without fake/meta support, data-dependent shapes: run for real
        sys.stderr.write(f"aten_trace: fake-tensor run failed ({type(e).__name__}: {e}); running the forward on the CPU\n")
        mode = "cpu"
        ops = record(mod, seed, fake=False)
    # one op per line: readable and still plain JSON
    text = '{"task": %s, "torch": %s, "mode": %s, "shape": %s, "ops": [\n' % (
        json.dumps(path), json.dumps(torch.__version__), json.dumps(mode), json.dumps(shape))
    text += ",\n".join("  " + json.dumps(op) for op in ops)
    text += "\n]}\n"
    if "--out" in argv:
        with open(argv[argv.index("--out") + 1], "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
