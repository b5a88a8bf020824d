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

# The perf shape, timed timing-only (never run for values): no KernelBench level-1 twin; sized so that its
# tensors (128-512 MiB each) make host dispatch and launch well under 10 % of eager's time.
PERF = dict(rows=16384, cols=8192)
