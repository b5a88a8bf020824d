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
