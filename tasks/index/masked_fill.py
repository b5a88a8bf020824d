"""Masked fill: y = value where mask is True, x elsewhere."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, value: float):
        super().__init__()
        self.value = value

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return x.masked_fill(mask, self.value)


batch_size = 32
rows = 64
cols = 300                # 1200 bytes per row: not a multiple of 32 bytes
value = -10000.0
dtype = torch.float32


def get_inputs():
    if dtype.is_floating_point:
        x = torch.randn(batch_size, rows, cols, dtype=dtype)
    else:
        x = torch.randint(-1000, 1000, (batch_size, rows, cols), dtype=dtype)
    mask = torch.rand(batch_size, rows, cols) < 0.3
    return [x, mask]


def get_init_inputs():
    return [value]


CASES = [
    dict(batch_size=3, rows=5, cols=77),
    dict(dtype=torch.float16),
    dict(dtype=torch.bfloat16),
    dict(dtype=torch.int32, value=-1.0),
]

# The perf shape, timed timing-only (never run for values): MultiKernelBench's size for the same operator,
# reference/index/masked_fill.py at 460a972 (KernelBench has no such problem).
PERF = dict(batch_size=64, rows=512, cols=512)
