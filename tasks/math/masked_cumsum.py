"""Masked prefix sum: y = cumsum(x * mask, dim), elements where mask is False contribute zero."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x * mask, dim=self.dim)


rows = 128
length = 1000             # 4000 bytes per row: not a multiple of 32 bytes
dim = 1
dtype = torch.float32


def get_inputs():
    x = torch.randn(rows, length, dtype=dtype)
    mask = torch.randint(0, 2, (rows, length)).bool()
    return [x, mask]


def get_init_inputs():
    return [dim]


CASES = [dict(rows=129, length=77, dim=0), dict(dtype=torch.bfloat16, length=300)]
