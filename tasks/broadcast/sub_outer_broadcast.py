"""Outer difference: y[i, j] = a[i, 0] - b[0, j], a (m, 1) and b (1, n) broadcast to (m, n)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return a - b


m = 500
n = 301
dtype = torch.float32


def get_inputs():
    if dtype.is_floating_point:
        return [torch.randn(m, 1, dtype=dtype), torch.randn(1, n, dtype=dtype)]
    return [torch.randint(-1000, 1000, (m, 1), dtype=dtype), torch.randint(-1000, 1000, (1, n), dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(dtype=torch.int32)]

# The perf shape, timed timing-only (never run for values): no KernelBench level-1 twin; sized so that its
# tensors (128-512 MiB each) make host dispatch and launch well under 10 % of eager's time.
PERF = dict(m=16384, n=8192)
