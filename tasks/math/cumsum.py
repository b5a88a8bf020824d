"""Inclusive prefix sum along one dimension: y[..., i] = sum of x[..., 0..i] (output keeps the input dtype)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x, dim=self.dim, dtype=x.dtype)


rows = 128
length = 1000             # 4000 bytes per row: not a multiple of 32 bytes
dim = 1
dtype = torch.float32


def get_inputs():
    if dtype.is_floating_point:
        return [torch.randn(rows, length, dtype=dtype)]
    return [torch.randint(-1000, 1000, (rows, length), dtype=dtype)]


def get_init_inputs():
    return [dim]


CASES = [
    dict(rows=300, length=77, dim=0),
    dict(dtype=torch.bfloat16, length=129),
    dict(dtype=torch.int32),
]
