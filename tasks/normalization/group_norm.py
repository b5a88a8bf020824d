"""Group normalization: channels split into groups, each normalized over (channels of the group, H, W); affine."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, num_groups: int, num_channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, num_channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.gn(x)


batch_size = 8
channels = 64
groups = 8
height = 28
width = 27
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, channels, height, width, dtype=dtype) * 2]


def get_init_inputs():
    return [groups, channels]


CASES = [dict(groups=32), dict(dtype=torch.float16), dict(channels=60, groups=6, height=9, width=9)]
