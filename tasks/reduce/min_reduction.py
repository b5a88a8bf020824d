"""Minimum over one dimension: y = x.min(dim).values."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.min(x, dim=self.dim)[0]


batch_size = 8
dim1 = 1000
dim2 = 65
reduce_dim = 2
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2, dtype=dtype)]


def get_init_inputs():
    return [reduce_dim]


CASES = [dict(reduce_dim=1), dict(dtype=torch.float16), dict(batch_size=2, dim1=20000, dim2=40, reduce_dim=1)]   # an axis too long for UB: in chunks
