"""ReLU: y = max(x, 0)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x)


batch_size = 64
dim = 1000                # 4000 bytes per fp32 row: not a multiple of 32 bytes
dtype = torch.float32


def get_inputs():
    if dtype.is_floating_point:
        return [torch.randn(batch_size, dim, dtype=dtype)]
    return [torch.randint(-1000, 1000, (batch_size, dim), dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(batch_size=37, dim=129), dict(dtype=torch.float16), dict(dtype=torch.bfloat16),
         dict(dtype=torch.int32, dim=777)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/19_ReLU.py at 423217d.
PERF = dict(batch_size=4096, dim=393216)
