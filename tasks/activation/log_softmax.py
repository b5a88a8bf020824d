"""Log-softmax over dimension 1: y_i = x_i - log(sum_j exp(x_j))."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.log_softmax(x, dim=self.dim)


batch_size = 64
dim = 4097
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=dtype) * 3]


def get_init_inputs():
    return [1]


CASES = [dict(dtype=torch.float16), dict(batch_size=5, dim=100)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/24_LogSoftmax.py at 423217d.
PERF = dict(batch_size=4096, dim=393216)
