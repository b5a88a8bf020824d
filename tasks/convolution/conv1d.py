"""1-D convolution (nn.Conv1d, cross-correlation) with padding, stride and bias."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int, bias: bool):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, bias=bias)
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs a float16 layer

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


batch_size = 8
in_channels = 32
out_channels = 64
length = 1000             # 4000 bytes per row: not a multiple of 32 bytes
kernel_size = 5
stride = 1
padding = 2
bias = True
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_channels, length, dtype=dtype)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, bias]


CASES = [dict(dtype=torch.float16), dict(batch_size=3, in_channels=7, out_channels=13, length=129, kernel_size=3, stride=2, padding=0, bias=False)]
