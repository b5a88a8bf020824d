"""3-D average pooling over (D, H, W) windows of an NCDHW tensor."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.pool = nn.AvgPool3d(kernel_size, stride=stride, padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


batch_size = 4
channels = 8
depth = 16
height = 32
width = 45                # 180 bytes per row: not a multiple of 32 bytes
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
    dict(batch_size=1, channels=5, depth=7, height=13, width=21, kernel_size=2, stride=1, padding=0),
]
