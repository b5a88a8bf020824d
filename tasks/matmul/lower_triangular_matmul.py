"""Product of two lower-triangular matrices, kept lower-triangular: C = tril(A @ B)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.tril(torch.matmul(A, B))


N = 300                   # rows of 1200 bytes: not a multiple of 32 bytes
dtype = torch.float32


def get_inputs():
    A = torch.tril(torch.randn(N, N, dtype=dtype))
    B = torch.tril(torch.randn(N, N, dtype=dtype))
    return [A, B]


def get_init_inputs():
    return []


CASES = [dict(N=33), dict(dtype=torch.bfloat16, N=128)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/15_Matmul_for_lower_triangular_matrices.py at 423217d.
PERF = dict(N=4096)
