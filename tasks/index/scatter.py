"""Out-of-place scatter along dim 1: out = x; out[i][index[i][j]] = src[i][j] (indices unique per row)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor, index: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
        return torch.scatter(x, 1, index, src)


rows = 128
cols = 1000               # 4000 bytes per row: not a multiple of 32 bytes
num_scattered = 300
dtype = torch.float32


def get_inputs():
    x = torch.randn(rows, cols, dtype=dtype)
    # a random permutation per row keeps indices unique, so the result does not depend on write order
    index = torch.rand(rows, cols).argsort(dim=1)[:, :num_scattered]
    src = torch.randn(rows, num_scattered, dtype=dtype)
    return [x, index, src]


def get_init_inputs():
    return []


CASES = [dict(rows=37, cols=77, num_scattered=77), dict(dtype=torch.float16)]

# The perf shape, timed timing-only (never run for values): MultiKernelBench's size for the same operator,
# reference/index/scatter.py at 460a972 (KernelBench has no such problem).
PERF = dict(rows=64, cols=8192, num_scattered=4096)
