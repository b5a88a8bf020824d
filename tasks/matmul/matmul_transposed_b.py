"""Matrix multiplication with the second operand stored transposed: C = A @ B.T, B of shape (N, K) (as nn.Linear)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B.T)


M = 256
K = 300                   # A and B rows of 1200 bytes: not a multiple of 32 bytes
N = 200
dtype = torch.float32


def get_inputs():
    return [torch.randn(M, K, dtype=dtype), torch.randn(N, K, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(M=129, K=77, N=65), dict(dtype=torch.bfloat16, M=128)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/17_Matmul_with_transposed_B.py at 423217d.
PERF = dict(M=2048, K=8192, N=4096)
