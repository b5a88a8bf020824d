"""Hyperbolic tangent: y = tanh(x)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(x)


batch_size = 128
dim = 2000                # 8000 bytes per fp32 row, 4000 per fp16 row
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=dtype) * 3]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/22_Tanh.py at 423217d.
PERF = dict(batch_size=4096, dim=393216)
