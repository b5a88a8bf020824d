"""Torch ops of a task's ModelNew and get_inputs that the CPU cannot run in float16 / bfloat16, in float32 instead.

NPUKernelBench's ModelNew (validation/module.py, the task's trusted code, not the candidate's) sometimes computes an
operand with PyTorch before calling the op (GeluGrad: y = gelu(x), then gelu_grad(dy, x, y)). On the NPU that runs in
the case's dtype; Debian's PyTorch 1.13 has no float16 CPU kernel for most such ops ("GeluKernelImpl" not
implemented for 'Half'). Inside `low_precision_fallback()` an op that raises that error runs again on float32 copies
of its low-precision tensors and its floating results are rounded back once to the inputs' dtype: the exact result
rounded once, as the reference side computes (docs/benchmark.md "The reference"). Ops that write into an argument
(in-place, out=) are not retried: their error stands.
"""
import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_map

_LOW = (torch.float16, torch.bfloat16)


def _unsupported(err):
    text = str(err)
    return "not implemented for 'Half'" in text or "not implemented for 'BFloat16'" in text


class low_precision_fallback(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        try:
            return func(*args, **kwargs)
        except RuntimeError as err:
            if not _unsupported(err) or func._schema.is_mutable:
                raise
        low = [a.dtype for a in _tensors((args, kwargs)) if a.dtype in _LOW]
        if not low:
            raise
        back = low[0]
        up = lambda a: a.float() if isinstance(a, torch.Tensor) and a.dtype in _LOW else a  # noqa: E731
        out = func(*tree_map(up, args), **tree_map(up, kwargs))
        down = lambda r: r.to(back) if isinstance(r, torch.Tensor) and r.dtype == torch.float32 else r  # noqa: E731
        return tree_map(down, out)


def _tensors(tree):
    found = []
    tree_map(lambda a: found.append(a) if isinstance(a, torch.Tensor) else None, tree)
    return found
