"""1-D average pooling: mean of each window of length kernel_size along the last axis."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.pool = nn.AvgPool1d(kernel_size, stride=stride, padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


batch_size = 16
channels = 32
length = 1000             # 4000 bytes per row: not a multiple of 32 bytes
kernel_size = 5
stride = 2
padding = 2
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, channels, length, dtype=dtype)]


def get_init_inputs():
    return [kernel_size, stride, padding]


CASES = [
    dict(batch_size=5, channels=3, length=77, kernel_size=3, stride=3, padding=0),
    dict(dtype=torch.bfloat16),
]
