"""Hardtanh: y = clamp(x, min_val, max_val)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, min_val: float, max_val: float):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.hardtanh(x, self.min_val, self.max_val)


batch_size = 100
dim = 999
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=dtype) * 2]


def get_init_inputs():
    return [-1.0, 1.0]


CASES = [dict(dtype=torch.float16)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/32_HardTanh.py at 423217d.
PERF = dict(batch_size=4096, dim=393216)
