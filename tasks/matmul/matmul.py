"""General matrix multiplication: C (M, N) = A (M, K) @ B (K, N)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


M = 256
K = 300                   # A rows of 1200 bytes: not a multiple of 32 bytes
N = 200
dtype = torch.float32


def get_inputs():
    return [torch.randn(M, K, dtype=dtype), torch.randn(K, N, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(M=77, K=129, N=33), dict(M=1, K=512, N=257), dict(dtype=torch.bfloat16, M=128)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/2_Standard_matrix_multiplication_.py at 423217d.
PERF = dict(M=2048, K=8192, N=4096)
