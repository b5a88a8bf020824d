"""Anti-aliased bilinear downsampling (triangle filter widened by the scale, as PIL) to a fixed size."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LEVEL = 1


class Model(nn.Module):
    def __init__(self, out_size: tuple):
        super().__init__()
        self.out_size = out_size

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.interpolate(x, size=self.out_size, mode="bilinear", align_corners=False, antialias=True)


batch_size = 4
channels = 3
height = 256
width = 300               # 1200 bytes per row: not a multiple of 32 bytes
out_size = (100, 77)
dtype = torch.float32


def get_inputs():
    return [torch.rand(batch_size, channels, height, width, dtype=dtype)]


def get_init_inputs():
    return [out_size]


CASES = [dict(dtype=torch.float16), dict(out_size=(37, 129))]      # downscale along H, upscale along W

# The perf shape, timed timing-only (never run for values): MultiKernelBench's size for the same operator,
# reference/resize/resize_with_antialias.py at 460a972 (KernelBench has no such problem).
PERF = dict(batch_size=8, channels=3, height=256, width=256, out_size=(128, 128))
