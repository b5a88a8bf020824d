"""Causal depthwise conv1d: padded by k - 1 on both sides, the first l outputs kept (no look-ahead)."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, kernel_size, padding=kernel_size - 1, groups=channels, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)[..., : x.shape[-1]]


batch, channels, length, kernel_size = 2, 16, 203, 3
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch, channels, length, dtype=dtype)]


def get_init_inputs():
    return [channels, kernel_size]
