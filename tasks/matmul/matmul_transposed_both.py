"""Matrix multiplication with both operands stored transposed: C = A.T @ B.T, A (K, M), B (N, K)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A.T, B.T)


M = 192
K = 256
N = 129                   # C rows of 516 bytes: not a multiple of 32 bytes
dtype = torch.float32


def get_inputs():
    return [torch.randn(K, M, dtype=dtype), torch.randn(N, K, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(M=33, K=100, N=17)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/18_Matmul_with_transposed_both.py at 423217d.
PERF = dict(M=2048, K=8192, N=4096)
