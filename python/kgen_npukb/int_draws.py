"""Random integer tensors drawn the way NPUKernelBench's prepare_inputs.py asks for them.

Several tasks make every input with torch.randn / torch.rand whatever the case's dtype (Equal, Less, Cross with int8
and int64 rows). The harness runs get_inputs on the NPU; the CPU's torch refuses a normal or uniform draw of an
integer dtype ("normal_kernel_cpu" not implemented for 'Char'). Inside `integer_draws()` such a call draws in float32
with the same generator and converts to the asked dtype (truncating toward zero, as .to() does), so the case is
checked on integers like -2..2 instead of failing. The check needs the candidate and the reference to see the same
inputs, not the NPU's own random stream, which the CPU cannot reproduce for any dtype.
"""
import contextlib

import torch

_FACTORIES = ("randn", "rand")
_LIKE = ("randn_like", "rand_like")


def _is_integer(dtype):
    return dtype is not None and not dtype.is_floating_point and not dtype.is_complex


def _wrap(original, like):
    def draw(*args, **kwargs):
        dtype = kwargs.get("dtype")
        if like and dtype is None and args and isinstance(args[0], torch.Tensor):
            dtype = args[0].dtype
        if not _is_integer(dtype):
            return original(*args, **kwargs)
        kwargs["dtype"] = torch.float32
        requires_grad = kwargs.pop("requires_grad", False)
        out = original(*args, **kwargs).to(dtype)
        return out.requires_grad_() if requires_grad else out
    return draw


@contextlib.contextmanager
def integer_draws():
    saved = {name: getattr(torch, name) for name in _FACTORIES + _LIKE}
    try:
        for name in _FACTORIES:
            setattr(torch, name, _wrap(saved[name], like=False))
        for name in _LIKE:
            setattr(torch, name, _wrap(saved[name], like=True))
        yield
    finally:
        for name, fn in saved.items():
            setattr(torch, name, fn)
