"""1-D transposed convolution (nn.ConvTranspose1d): the gradient of Conv1d w.r.t. its input, upsampling by stride."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 output_padding: int):
        super().__init__()
        self.conv = nn.ConvTranspose1d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                                       output_padding=output_padding)
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs a float16 layer

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


batch_size = 8
in_channels = 32
out_channels = 16
length = 500              # 2000 bytes per row: not a multiple of 32 bytes
kernel_size = 4
stride = 2
padding = 1
output_padding = 0
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_channels, length, dtype=dtype)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, output_padding]


CASES = [dict(dtype=torch.float16), dict(batch_size=2, in_channels=5, out_channels=3, length=77, kernel_size=3, stride=3, padding=0,
              output_padding=1)]
