"""Column-vector division: y[i, j] = x[i, j] / d[i] (d of shape (rows, 1), kept away from zero)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor, d: torch.Tensor) -> torch.Tensor:
        return x / d


rows = 300
cols = 777
dtype = torch.float32


def get_inputs():
    return [torch.randn(rows, cols, dtype=dtype), torch.rand(rows, 1, dtype=dtype) + 0.5]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(rows=1, cols=100000)]
