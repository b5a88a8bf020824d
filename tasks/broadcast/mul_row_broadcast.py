"""Row-vector scaling: y[i, j] = x[i, j] * scale[j] (scale broadcast over rows)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
        return x * scale


rows = 256
cols = 1000
dtype = torch.float32


def get_inputs():
    if dtype.is_floating_point:
        return [torch.randn(rows, cols, dtype=dtype), torch.randn(cols, dtype=dtype)]
    return [torch.randint(-100, 100, (rows, cols), dtype=dtype), torch.randint(-100, 100, (cols,), dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(dtype=torch.int32), dict(rows=5, cols=33)]
