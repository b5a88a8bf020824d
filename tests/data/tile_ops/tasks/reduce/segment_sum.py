"""Unsorted segment sum along the last dim with 8 segments (TensorFlow's unsorted_segment_sum per row):
y[r, j] = sum of x[r, k] over the k with ids[r, k] == j; ids outside 0..7 are dropped."""
import torch
import torch.nn as nn

LEVEL = 1
SEGMENTS = 8


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
        keep = (ids >= 0) & (ids < SEGMENTS)
        y = torch.zeros(*x.shape[:-1], SEGMENTS, dtype=torch.float32)
        y.scatter_add_(-1, ids.clamp(0, SEGMENTS - 1).long(), torch.where(keep, x.float(), 0.0))
        return y.to(x.dtype)


rows = 96
length = 700
dtype = torch.float32


def get_inputs():
    return [torch.randn(rows, length, dtype=dtype), torch.randint(-1, SEGMENTS + 1, (rows, length), dtype=torch.int32)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(rows=2, length=4000), dict(rows=500, length=9, dtype=torch.float16)]
