"""Trilinear 3-D upsampling of an NCDHW tensor by a scale factor."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LEVEL = 1


class Model(nn.Module):
    def __init__(self, scale_factor: float, align_corners: bool):
        super().__init__()
        self.scale_factor = scale_factor
        self.align_corners = align_corners

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.interpolate(x, scale_factor=self.scale_factor, mode="trilinear",
                             align_corners=self.align_corners)


batch_size = 2
channels = 8
depth = 8
height = 24
width = 29                # 116 bytes per row: not a multiple of 32 bytes
scale_factor = 2.0
align_corners = False
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, channels, depth, height, width, dtype=dtype)]


def get_init_inputs():
    return [scale_factor, align_corners]


CASES = [dict(align_corners=True), dict(dtype=torch.bfloat16, scale_factor=1.5)]

# The perf shape, timed timing-only (never run for values): MultiKernelBench's size for the same operator,
# reference/resize/trilinear_upsample.py at 460a972 (KernelBench has no such problem).
PERF = dict(batch_size=2, channels=16, depth=32, height=32, width=32, scale_factor=2.0, align_corners=True)
