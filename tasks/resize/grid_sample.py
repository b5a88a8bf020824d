"""Bilinear grid sampling: out[n, c, h, w] = x[n, c] sampled at grid[n, h, w] in [-1, 1] coords, zeros outside."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LEVEL = 1


class Model(nn.Module):
    def __init__(self, align_corners: bool):
        super().__init__()
        self.align_corners = align_corners

    def forward(self, x: torch.Tensor, grid: torch.Tensor) -> torch.Tensor:
        return F.grid_sample(x, grid, mode="bilinear", padding_mode="zeros",
                             align_corners=self.align_corners)


batch_size = 4
channels = 16
height = 64
width = 75                # 300 bytes per row: not a multiple of 32 bytes
out_height = 48
out_width = 50
align_corners = False
dtype = torch.float32


def get_inputs():
    x = torch.randn(batch_size, channels, height, width, dtype=dtype)
    grid = torch.rand(batch_size, out_height, out_width, 2, dtype=dtype) * 2.2 - 1.1   # a few points fall outside
    return [x, grid]


def get_init_inputs():
    return [align_corners]


CASES = [dict(dtype=torch.float16), dict(align_corners=True, batch_size=1, channels=3, out_height=33, out_width=129)]

# The perf shape, timed timing-only (never run for values): MultiKernelBench's size for the same operator,
# reference/resize/grid_sample_random_warp.py at 460a972 (KernelBench has no such problem).
PERF = dict(batch_size=4, channels=3, height=256, width=256, out_height=256, out_width=256, align_corners=False)
