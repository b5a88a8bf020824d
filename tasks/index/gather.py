"""torch.gather: out[i][j] = x[i][index[i][j]] along dim 1 (int64 indices)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
        return torch.gather(x, self.dim, index)


rows = 128
cols = 1000               # 4000 bytes per row: not a multiple of 32 bytes
num_gathered = 300
dim = 1
dtype = torch.float32


def get_inputs():
    if dtype.is_floating_point:
        x = torch.randn(rows, cols, dtype=dtype)
    else:
        x = torch.randint(-1000, 1000, (rows, cols), dtype=dtype)
    index = torch.randint(0, cols, (rows, num_gathered))
    return [x, index]


def get_init_inputs():
    return [dim]


CASES = [dict(rows=33, cols=129, num_gathered=77), dict(dtype=torch.float16), dict(dtype=torch.int32)]

# The perf shape, timed timing-only (never run for values): MultiKernelBench's size for the same operator,
# reference/index/gather.py at 460a972 (KernelBench has no such problem).
PERF = dict(rows=128, cols=8192, num_gathered=4096, dim=1)
