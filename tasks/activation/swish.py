"""Swish / SiLU: y = x * sigmoid(x)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.sigmoid(x)


batch_size = 8
channels = 64
length = 300
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, channels, length, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(batch_size=3, channels=5, length=7)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/25_Swish.py at 423217d
# (4096 x 393216 there; the same elements in this task's [B, C, L] layout).
PERF = dict(batch_size=4096, channels=384, length=1024)
