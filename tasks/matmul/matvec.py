"""Matrix-vector product: y (M,) = A (M, K) @ x (K,)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, x)


M = 512
K = 1000                  # A rows of 4000 bytes: not a multiple of 32 bytes
dtype = torch.float32


def get_inputs():
    return [torch.randn(M, K, dtype=dtype), torch.randn(K, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(M=77, K=129), dict(M=1, K=100003), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/4_Matrix_vector_multiplication_.py at 423217d.
PERF = dict(M=2048, K=1048576)
