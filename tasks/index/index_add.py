"""Out-of-place index_add along dim 0: out = x; out[index[k], :] += alpha * src[k, :] (duplicates accumulate)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor, index: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
        return torch.index_add(x, 0, index, src, alpha=self.alpha)


rows = 1000
cols = 300                # 1200 bytes per row: not a multiple of 32 bytes
num_src = 700
alpha = 0.5
dtype = torch.float32


def get_inputs():
    x = torch.randn(rows, cols, dtype=dtype)
    index = torch.randint(0, rows, (num_src,))
    src = torch.randn(num_src, cols, dtype=dtype)
    return [x, index, src]


def get_init_inputs():
    return [alpha]


CASES = [dict(rows=33, cols=129, num_src=100, alpha=1.0), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): MultiKernelBench's size for the same operator,
# reference/index/index_add.py at 460a972 (KernelBench has no such problem).
PERF = dict(rows=1024, cols=4096, num_src=8192, alpha=1.0)
