"""Inclusive prefix product along one dimension: y[..., i] = product of x[..., 0..i]."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumprod(x, dim=self.dim)


rows = 256
length = 500              # 2000 bytes per row: not a multiple of 32 bytes
dim = 1
dtype = torch.float32


def get_inputs():
    # factors in [0.5, 1.5): products stay well inside the fp32 range over a few hundred steps
    return [torch.rand(rows, length, dtype=dtype) + 0.5]


def get_init_inputs():
    return [dim]


CASES = [
    dict(rows=33, length=129),
    dict(dtype=torch.bfloat16, length=64),
]
