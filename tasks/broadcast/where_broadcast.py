"""Select with broadcasting: y = where(cond[b, 1], x[b, n], other[n]), cond a bool tensor."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, cond: torch.Tensor, x: torch.Tensor, other: torch.Tensor) -> torch.Tensor:
        return torch.where(cond, x, other)


batch_size = 128
dim = 1001
dtype = torch.float32


def get_inputs():
    cond = torch.rand(batch_size, 1) > 0.5
    if dtype.is_floating_point:
        return [cond, torch.randn(batch_size, dim, dtype=dtype), torch.randn(dim, dtype=dtype)]
    return [cond, torch.randint(-50, 50, (batch_size, dim), dtype=dtype), torch.randint(-50, 50, (dim,), dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(dtype=torch.int64, batch_size=9, dim=65)]

# The perf shape, timed timing-only (never run for values): no KernelBench level-1 twin; sized so that its
# tensors (128-512 MiB each) make host dispatch and launch well under 10 % of eager's time.
PERF = dict(batch_size=16384, dim=8192)
