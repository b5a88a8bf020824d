"""ELU: y = x if x > 0 else alpha * (exp(x) - 1)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.elu(x, alpha=self.alpha)


batch_size = 32
dim = 5000
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=dtype)]


def get_init_inputs():
    return [1.5]


CASES = [dict(dtype=torch.float16)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/31_ELU.py at 423217d.
PERF = dict(batch_size=4096, dim=393216)
