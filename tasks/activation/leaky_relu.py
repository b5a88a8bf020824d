"""Leaky ReLU: y = x if x >= 0 else negative_slope * x."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, negative_slope: float):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.leaky_relu(x, self.negative_slope)


batch_size = 64
dim = 1000                # 4000 bytes per row: not a multiple of 32 bytes
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=dtype)]


def get_init_inputs():
    return [0.2]


CASES = [dict(batch_size=37, dim=129), dict(dtype=torch.float16)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/20_LeakyReLU.py at 423217d.
PERF = dict(batch_size=4096, dim=393216)
