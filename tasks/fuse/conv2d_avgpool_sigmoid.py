"""2-D convolution, 2x2 average pooling, sigmoid: y = sigmoid(avg_pool2d(conv2d(x), 2))."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, pool: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.pool = pool
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs float16 layers

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(torch.nn.functional.avg_pool2d(self.conv(x), self.pool))


batch_size = 4
in_channels = 3
out_channels = 16
kernel_size = 3
height = 33
width = 33                # 31x31 conv output: pooling drops the odd last row/column
pool = 2
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width, dtype=dtype)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, pool]


CASES = [dict(dtype=torch.float16)]

# The perf shape, timed timing-only (never run for values): the nearest KernelBench problem's size,
# level2/65_Conv2d_AvgPool_Sigmoid_Sum.py at 423217d (KernelBench's ends with a sum over channels and plane).
PERF = dict(batch_size=128, in_channels=8, out_channels=64, kernel_size=3, height=384, width=384, pool=4)
