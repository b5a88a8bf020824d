"""Tall-skinny matrix multiplication: C (M, N) = A (M, K) @ B (K, N) with M much larger than K and N."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


M = 4000
K = 64
N = 77                    # C rows of 308 bytes: not a multiple of 32 bytes
dtype = torch.float32


def get_inputs():
    return [torch.randn(M, K, dtype=dtype), torch.randn(K, N, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(M=10007, K=16, N=16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/9_Tall_skinny_matrix_multiplication_.py at 423217d.
PERF = dict(M=32768, K=32, N=32768)
