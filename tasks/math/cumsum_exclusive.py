"""Exclusive prefix sum along the last dimension: y[..., 0] = 0, y[..., i] = sum of x[..., 0..i-1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shifted = F.pad(x, (1, 0))[..., :-1]      # prepend a zero, drop the last element
        return torch.cumsum(shifted, dim=-1)


rows = 128
length = 1000             # 4000 bytes per row: not a multiple of 32 bytes
dtype = torch.float32


def get_inputs():
    return [torch.randn(rows, length, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(rows=7, length=4097), dict(dtype=torch.bfloat16, length=129)]
