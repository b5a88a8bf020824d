"""torch.take_along_dim: out[b, r, j] = x[b, r, idx[b, r, j]] along the last dim (int64 indices, repeats allowed)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
        return torch.take_along_dim(x, idx, dim=-1)


batch_size = 16
rows = 64
cols = 1000               # 4000 bytes per row: not a multiple of 32 bytes
k = 77
dtype = torch.float32


def get_inputs():
    x = torch.randn(batch_size, rows, cols, dtype=dtype)
    idx = torch.randint(0, cols, (batch_size, rows, k))
    return [x, idx]


def get_init_inputs():
    return []


CASES = [dict(batch_size=1, rows=3, cols=129, k=129), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): MultiKernelBench's size for the same operator,
# reference/index/take_along_dim.py at 460a972 (KernelBench has no such problem).
PERF = dict(batch_size=1, rows=128, cols=8192, k=4096)
