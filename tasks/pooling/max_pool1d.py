"""1-D max pooling: y[n, c, i] = max over the window x[n, c, i*stride - padding + k*dilation]."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int, dilation: int):
        super().__init__()
        self.pool = nn.MaxPool1d(kernel_size, stride=stride, padding=padding, dilation=dilation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


batch_size = 16
channels = 32
length = 1000             # 4000 bytes per row: not a multiple of 32 bytes
kernel_size = 4
stride = 2
padding = 1
dilation = 1
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, channels, length, dtype=dtype)]


def get_init_inputs():
    return [kernel_size, stride, padding, dilation]


CASES = [
    dict(batch_size=3, channels=7, length=129, kernel_size=3, stride=1, padding=1, dilation=2),
    dict(dtype=torch.bfloat16),
]
