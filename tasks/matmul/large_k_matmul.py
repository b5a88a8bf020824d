"""Matrix multiplication with a long reduction: C (M, N) = A (M, K) @ B (K, N) with K >> M, N."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


M = 64
K = 8000
N = 48                    # C rows of 192 bytes; B rows of 192 bytes
dtype = torch.float32


def get_inputs():
    return [torch.randn(M, K, dtype=dtype), torch.randn(K, N, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(M=17, K=20001, N=33), dict(dtype=torch.bfloat16, K=4096)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/6_Matmul_with_large_K_dimension_.py at 423217d.
PERF = dict(M=256, K=524288, N=256)
