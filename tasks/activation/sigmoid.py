"""Sigmoid: y = 1 / (1 + exp(-x))."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(x)


batch_size = 16
dim = 16383               # one element short of 64 KB per fp32 row
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=dtype) * 4]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/21_Sigmoid.py at 423217d.
PERF = dict(batch_size=4096, dim=393216)
