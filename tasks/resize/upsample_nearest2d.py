"""Nearest-neighbour 2-D resize by a scale factor: out[.., i, j] = x[.., floor(i / s), floor(j / s)]."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LEVEL = 1


class Model(nn.Module):
    def __init__(self, scale_factor: float):
        super().__init__()
        self.scale_factor = scale_factor

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.interpolate(x, scale_factor=self.scale_factor, mode="nearest")


batch_size = 8
channels = 16
height = 48
width = 77                # 308 bytes per row: not a multiple of 32 bytes
scale_factor = 2.0
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, channels, height, width, dtype=dtype)]


def get_init_inputs():
    return [scale_factor]


CASES = [dict(scale_factor=1.5, height=33, width=129), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): MultiKernelBench's size for the same operator,
# reference/resize/nearest_neighbor_upsample.py at 460a972 (KernelBench has no such problem).
PERF = dict(batch_size=16, channels=128, height=32, width=32, scale_factor=4.0)
