"""2-D average pooling over (H, W) windows of an NCHW tensor (padding counted unless count_include_pad=False)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int, count_include_pad: bool):
        super().__init__()
        self.pool = nn.AvgPool2d(kernel_size, stride=stride, padding=padding,
                                 count_include_pad=count_include_pad)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


batch_size = 8
channels = 16
height = 64
width = 77                # 308 bytes per row: not a multiple of 32 bytes
kernel_size = 3
stride = 2
padding = 1
count_include_pad = True
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, channels, height, width, dtype=dtype)]


def get_init_inputs():
    return [kernel_size, stride, padding, count_include_pad]


CASES = [
    dict(count_include_pad=False),
    dict(batch_size=2, channels=3, height=31, width=129, kernel_size=4, stride=4, padding=0),
    dict(dtype=torch.bfloat16),
]
