"""Frobenius normalization: y = x / ||x||_F, the norm over the whole tensor (a full reduction, then a scale)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x / torch.norm(x, p="fro")


batch_size = 8
features = 16
height = 64
width = 65
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, features, height, width, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(batch_size=1, features=1, height=3, width=333)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/37_FrobeniusNorm_.py at 423217d.
PERF = dict(batch_size=112, features=64, height=512, width=512)
