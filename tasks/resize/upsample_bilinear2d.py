"""Bilinear 2-D resize of an NCHW tensor to a fixed output size (align_corners selectable)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LEVEL = 1


class Model(nn.Module):
    def __init__(self, out_size: tuple, align_corners: bool):
        super().__init__()
        self.out_size = out_size
        self.align_corners = align_corners

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.interpolate(x, size=self.out_size, mode="bilinear", align_corners=self.align_corners)


batch_size = 4
channels = 16
height = 64
width = 75                # 300 bytes per row: not a multiple of 32 bytes
out_size = (128, 150)
align_corners = False
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, channels, height, width, dtype=dtype)]


def get_init_inputs():
    return [out_size, align_corners]


CASES = [
    dict(align_corners=True),
    dict(out_size=(97, 33)),            # non-integer ratios, and a downscale along W
    dict(dtype=torch.bfloat16),
]

# The perf shape, timed timing-only (never run for values): MultiKernelBench's size for the same operator,
# reference/resize/bilinear_upsample.py at 460a972 (KernelBench has no such problem).
PERF = dict(batch_size=8, channels=256, height=64, width=64, out_size=(128, 128), align_corners=False)
