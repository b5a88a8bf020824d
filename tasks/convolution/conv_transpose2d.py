"""2-D transposed convolution (nn.ConvTranspose2d) that upsamples an NCHW tensor by its stride."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 output_padding: int):
        super().__init__()
        self.conv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                                       output_padding=output_padding)
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs a float16 layer

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


batch_size = 4
in_channels = 32
out_channels = 16
height = 24
width = 39                # 156 bytes per row: not a multiple of 32 bytes
kernel_size = 4
stride = 2
padding = 1
output_padding = 0
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width, dtype=dtype)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, output_padding]


CASES = [dict(dtype=torch.float16), dict(batch_size=1, in_channels=3, out_channels=7, height=17, width=33, kernel_size=3, stride=2,
              padding=1, output_padding=1)]
