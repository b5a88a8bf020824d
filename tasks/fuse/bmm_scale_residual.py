"""Batched matrix product, scale, add a residual: y = scale * (a @ b) + c."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
        return torch.bmm(a, b) * self.scale + c


batch = 8
m = 64
k = 128
n = 100                   # output rows of 400 bytes
scale = 0.5
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch, m, k, dtype=dtype), torch.randn(batch, k, n, dtype=dtype),
            torch.randn(batch, m, n, dtype=dtype)]


def get_init_inputs():
    return [scale]


CASES = [dict(batch=3, m=17, k=33, n=65), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): no KernelBench or MultiKernelBench twin; sized so that
# its tensors (64-512 MiB each) make host dispatch and launch well under 10 % of eager's time.
PERF = dict(batch=64, m=1024, k=1024, n=1024)
