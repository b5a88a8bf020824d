"""Out-of-place scatter-add along dim 1: out = x; out[i][index[i][j]] += src[i][j] (duplicate indices accumulate)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor, index: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
        return torch.scatter_add(x, 1, index, src)


rows = 64
cols = 1000               # 4000 bytes per row: not a multiple of 32 bytes
num_src = 2000
dtype = torch.float32


def get_inputs():
    if dtype.is_floating_point:
        x = torch.randn(rows, cols, dtype=dtype)
        src = torch.randn(rows, num_src, dtype=dtype)
    else:
        x = torch.randint(-100, 100, (rows, cols), dtype=dtype)
        src = torch.randint(-100, 100, (rows, num_src), dtype=dtype)
    index = torch.randint(0, cols, (rows, num_src))
    return [x, index, src]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(rows=5, cols=129, num_src=77), dict(dtype=torch.int32)]

# The perf shape, timed timing-only (never run for values): MultiKernelBench's size for the same operator,
# reference/index/scatter_add.py at 460a972 (KernelBench has no such problem).
PERF = dict(rows=32, cols=4096, num_src=1024)
