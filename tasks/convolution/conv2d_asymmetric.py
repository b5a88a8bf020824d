"""2-D convolution with a rectangular kernel, per-axis stride, padding and dilation (nn.Conv2d)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: tuple, stride: tuple,
                 padding: tuple, dilation: tuple):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                              dilation=dilation, bias=False)
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs a float16 layer

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


batch_size = 4
in_channels = 8
out_channels = 24
height = 64
width = 75                # 300 bytes per row: not a multiple of 32 bytes
kernel_size = (3, 5)
stride = (1, 2)
padding = (2, 1)
dilation = (2, 1)
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width, dtype=dtype)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, dilation]


CASES = [dict(dtype=torch.float16), dict(kernel_size=(5, 1), stride=(2, 1), padding=(0, 0), dilation=(1, 3), width=129, height=31)]
