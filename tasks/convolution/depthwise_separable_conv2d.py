"""Depthwise-separable 2-D convolution: a depthwise k x k conv followed by a pointwise 1 x 1 conv (two fused ops)."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, padding: int):
        super().__init__()
        self.depthwise = nn.Conv2d(in_channels, in_channels, kernel_size, padding=padding, groups=in_channels,
                                   bias=False)
        self.pointwise = nn.Conv2d(in_channels, out_channels, 1, bias=False)
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs a float16 layer

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pointwise(self.depthwise(x))


batch_size = 4
in_channels = 32
out_channels = 64
height = 40
width = 45                # 180 bytes per row: not a multiple of 32 bytes
kernel_size = 3
padding = 1
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width, dtype=dtype)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, padding]


CASES = [dict(dtype=torch.float16), dict(batch_size=1, in_channels=7, out_channels=33, height=31, width=77, kernel_size=5, padding=2)]
