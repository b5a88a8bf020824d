"""Pointwise (1 x 1) 2-D convolution: a per-pixel channel mix, out[n, o, h, w] = sum_c W[o, c] x[n, c, h, w] + b[o]."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=1)
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs a float16 layer

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


batch_size = 4
in_channels = 64
out_channels = 96
height = 32
width = 45                # 180 bytes per row: not a multiple of 32 bytes
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width, dtype=dtype)]


def get_init_inputs():
    return [in_channels, out_channels]


CASES = [dict(dtype=torch.float16), dict(batch_size=1, in_channels=3, out_channels=129, height=17, width=77)]
