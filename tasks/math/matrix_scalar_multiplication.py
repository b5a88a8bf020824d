"""Matrix times scalar: C = A * s for a constant scalar s."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, scalar: float):
        super().__init__()
        self.scalar = scalar

    def forward(self, A: torch.Tensor) -> torch.Tensor:
        return A * self.scalar


M = 512
N = 1000                  # 4000 bytes per row: not a multiple of 32 bytes
scalar = 3.14
dtype = torch.float32


def get_inputs():
    return [torch.randn(M, N, dtype=dtype)]


def get_init_inputs():
    return [scalar]


CASES = [
    dict(M=77, N=129, scalar=-0.5),
    dict(dtype=torch.float16),
    dict(dtype=torch.bfloat16),
]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/5_Matrix_scalar_multiplication.py at 423217d.
PERF = dict(M=65536, N=16384)
