"""Depthwise 2-D convolution: each channel convolved with its own k x k filter (groups = channels)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, stride=stride, padding=padding, groups=channels)
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs a float16 layer

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


batch_size = 8
channels = 32
height = 56
width = 75                # 300 bytes per row: not a multiple of 32 bytes
kernel_size = 3
stride = 1
padding = 1
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, channels, height, width, dtype=dtype)]


def get_init_inputs():
    return [channels, kernel_size, stride, padding]


CASES = [dict(dtype=torch.float16), dict(batch_size=2, channels=13, height=33, width=129, kernel_size=5, stride=2, padding=2)]

# The perf shape, timed timing-only (never run for values): the nearest KernelBench problem's size,
# level1/82_conv_depthwise_2D_square_input_square_kernel.py at 423217d (KernelBench's convolution has no bias).
PERF = dict(batch_size=16, channels=64, height=512, width=512, kernel_size=3, stride=1, padding=0)
