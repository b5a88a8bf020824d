"""Matrix multiplication with the first operand stored transposed: C = A.T @ B, A of shape (K, M)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A.T, B)


M = 200
K = 256
N = 300                   # B and C rows of 1200 bytes: not a multiple of 32 bytes
dtype = torch.float32


def get_inputs():
    return [torch.randn(K, M, dtype=dtype), torch.randn(K, N, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(M=77, K=33, N=129), dict(dtype=torch.bfloat16, K=128)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/16_Matmul_with_transposed_A.py at 423217d.
PERF = dict(M=2048, K=8192, N=4096)
