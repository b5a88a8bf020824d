"""3-D max pooling over (D, H, W) windows of an NCDHW tensor."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.pool = nn.MaxPool3d(kernel_size, stride=stride, padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


batch_size = 4
channels = 8
depth = 20
height = 36
width = 37                # 148 bytes per row: not a multiple of 32 bytes
kernel_size = 3
stride = 2
padding = 1
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, channels, depth, height, width, dtype=dtype)]


def get_init_inputs():
    return [kernel_size, stride, padding]


CASES = [
    dict(dtype=torch.float16),
    dict(batch_size=1, channels=3, depth=9, height=17, width=29, kernel_size=2, stride=2, padding=0),
]
