"""Reverse (suffix) prefix sum: y[..., i] = sum of x[..., i..n-1] along one dimension."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x.flip(self.dim), dim=self.dim).flip(self.dim)


rows = 128
length = 1000             # 4000 bytes per row: not a multiple of 32 bytes
dim = 1
dtype = torch.float32


def get_inputs():
    return [torch.randn(rows, length, dtype=dtype)]


def get_init_inputs():
    return [dim]


CASES = [
    dict(rows=257, length=33, dim=0),
    dict(dtype=torch.bfloat16, length=129),
]
