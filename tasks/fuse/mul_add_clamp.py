"""Multiply-add then clamp, elementwise: y = clamp(a * b + c, lo, hi)."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, lo: int, hi: int):
        super().__init__()
        self.lo = lo
        self.hi = hi

    def forward(self, a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
        return torch.clamp(a * b + c, self.lo, self.hi)


rows = 100
cols = 1000
dtype = torch.float32


def get_inputs():
    if dtype.is_floating_point:
        return [torch.randn(rows, cols, dtype=dtype) * 4 for _ in range(3)]
    return [torch.randint(-8, 9, (rows, cols), dtype=dtype) for _ in range(3)]


def get_init_inputs():
    return [-20, 20]


CASES = [dict(rows=13, cols=77), dict(dtype=torch.float16), dict(dtype=torch.int32), dict(dtype=torch.int32, rows=3, cols=1001)]

# The perf shape, timed timing-only (never run for values): no KernelBench or MultiKernelBench twin; sized so that
# its tensors (64-512 MiB each) make host dispatch and launch well under 10 % of eager's time.
PERF = dict(rows=16384, cols=4096)
