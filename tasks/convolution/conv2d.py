"""Standard 2-D convolution (nn.Conv2d, square kernel) of an NCHW tensor, with bias."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int, bias: bool):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, bias=bias)
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs a float16 layer

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


batch_size = 4
in_channels = 16
out_channels = 32
height = 48
width = 77                # 308 bytes per row: not a multiple of 32 bytes
kernel_size = 3
stride = 1
padding = 1
bias = True
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width, dtype=dtype)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, bias]


CASES = [
    dict(dtype=torch.float16),
    dict(batch_size=2, in_channels=3, out_channels=17, height=33, width=65, kernel_size=5, stride=2, padding=2),
    dict(bias=False, kernel_size=1, padding=0),
]
