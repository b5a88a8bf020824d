"""Softplus: y = log(1 + exp(x)) (linear above the threshold 20)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.softplus(x)


batch_size = 64
dim = 3001
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=dtype) * 10]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/29_Softplus.py at 423217d.
PERF = dict(batch_size=4096, dim=393216)
