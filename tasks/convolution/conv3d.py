"""Standard 3-D convolution (nn.Conv3d, cubic kernel) of an NCDHW tensor, with bias."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, stride=stride, padding=padding)
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs a float16 layer

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


batch_size = 2
in_channels = 4
out_channels = 16
depth = 12
height = 24
width = 29                # 116 bytes per row: not a multiple of 32 bytes
kernel_size = 3
stride = 1
padding = 1
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_channels, depth, height, width, dtype=dtype)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding]


CASES = [dict(dtype=torch.float16), dict(batch_size=1, in_channels=3, out_channels=5, depth=9, height=17, width=33, stride=2, padding=0)]

# The perf shape, timed timing-only (never run for values): the nearest KernelBench problem's size,
# level1/54_conv_standard_3D__square_input__square_kernel.py at 423217d (KernelBench's convolution has no bias).
PERF = dict(batch_size=16, in_channels=3, out_channels=64, depth=64, height=64, width=64, kernel_size=3, stride=1, padding=0)
