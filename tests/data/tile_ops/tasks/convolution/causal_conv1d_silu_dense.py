"""Causal conv1d + SiLU (all channels mixed: the cube lowering): padded by k - 1, the first l outputs kept, then silu."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, kernel_size, padding=kernel_size - 1, )
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs a float16 layer

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.silu(self.conv(x)[..., : x.shape[-1]])


batch = 2
channels = 48
length = 203
kernel_size = 4
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch, channels, length, dtype=dtype)]


def get_init_inputs():
    return [channels, kernel_size]


CASES = [dict(dtype=torch.float16), dict(batch=3, channels=5, length=17, kernel_size=3)]
