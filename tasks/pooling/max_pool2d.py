"""2-D max pooling over (H, W) windows of an NCHW tensor."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int, dilation: int):
        super().__init__()
        self.pool = nn.MaxPool2d(kernel_size, stride=stride, padding=padding, dilation=dilation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


batch_size = 8
channels = 16
height = 75
width = 75                # 300 bytes per row: not a multiple of 32 bytes
kernel_size = 3
stride = 2
padding = 1
dilation = 1
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, channels, height, width, dtype=dtype)]


def get_init_inputs():
    return [kernel_size, stride, padding, dilation]


CASES = [
    dict(batch_size=2, channels=5, height=33, width=129, kernel_size=2, stride=2, padding=0),
    dict(kernel_size=3, stride=1, padding=1, dilation=2),
    dict(dtype=torch.bfloat16),
]
