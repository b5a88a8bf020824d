"""Mean squared error: loss = mean((pred - target)^2), a 0-dim tensor."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        return torch.mean((pred - target) ** 2)


batch_size = 128
dim = 1000
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=dtype), torch.randn(batch_size, dim, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(dtype=torch.bfloat16), dict(batch_size=1, dim=77)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/94_MSELoss.py at 423217d.
PERF = dict(batch_size=32768, dim=32768)
