"""Softmax over the last dimension: y_i = exp(x_i - max x) / sum_j exp(x_j - max x)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=-1)


batch_size = 128
dim = 1000                # class count of ImageNet: rows not a multiple of 32 bytes
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=dtype) * 5]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(batch_size=7, dim=32001), dict(batch_size=1000, dim=17)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/23_Softmax.py at 423217d.
PERF = dict(batch_size=4096, dim=393216)
