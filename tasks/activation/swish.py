"""Swish / SiLU: y = x * sigmoid(x)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.sigmoid(x)


batch_size = 8
channels = 64
length = 300
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, channels, length, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(batch_size=3, channels=5, length=7)]
