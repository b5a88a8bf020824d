"""Diagonal matrix times matrix: C = diag(a) @ B, i.e. row i of B scaled by a[i]."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, a: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.diag(a) @ B


N = 512
M = 300                   # B rows of 1200 bytes: not a multiple of 32 bytes
dtype = torch.float32


def get_inputs():
    return [torch.randn(N, dtype=dtype), torch.randn(N, M, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(N=77, M=129), dict(dtype=torch.bfloat16, N=256)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/12_Matmul_with_diagonal_matrices_.py at 423217d.
PERF = dict(N=4096, M=4096)
