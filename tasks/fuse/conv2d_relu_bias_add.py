"""2-D convolution, ReLU, add a learned per-channel bias: y = relu(conv2d(x)) + bias[c]."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(out_channels, 1, 1))
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs float16 layers

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.conv(x)) + self.bias


batch_size = 4
in_channels = 8
out_channels = 16
kernel_size = 3
height = 34
width = 34                # 32x32 output: 136-byte input rows
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width, dtype=dtype)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]


CASES = [dict(batch_size=1, in_channels=3, height=19, width=23), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level2/1_Conv2D_ReLU_BiasAdd.py at 423217d.
PERF = dict(batch_size=128, in_channels=64, out_channels=128, kernel_size=3, height=128, width=128)
