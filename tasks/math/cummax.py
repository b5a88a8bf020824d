"""Running maximum along one dimension: values[..., i] = max of x[..., 0..i] and the int64 index where it occurs."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor):
        values, indices = torch.cummax(x, dim=self.dim)
        return values, indices


rows = 128
length = 1000             # 4000 bytes per row: not a multiple of 32 bytes
dim = 1
dtype = torch.float32


def get_inputs():
    if dtype.is_floating_point:
        return [torch.randn(rows, length, dtype=dtype)]
    return [torch.randint(-100000, 100000, (rows, length), dtype=dtype)]


def get_init_inputs():
    return [dim]


CASES = [dict(dtype=torch.float16), dict(rows=300, length=33, dim=0), dict(dtype=torch.int32)]
