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

# The perf shape, timed timing-only (never run for values): no KernelBench level-1 twin; sized so that its
# tensors (128-512 MiB each) make host dispatch and launch well under 10 % of eager's time.
PERF = dict(rows=16384, cols=8192)
