"""GELU, tanh approximation (GPT-2 "new gelu"): y = 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3)))."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.gelu(x, approximate="tanh")


batch_size = 16
dim = 3072                # MLP width of a small transformer
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(batch_size=13, dim=1001)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/88_MinGPTNewGelu.py at 423217d.
PERF = dict(batch_size=8192, dim=8192)
