"""3-D tensor times matrix: C[b] = A[b] @ B for A (batch, M, K) and a shared B (K, N)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


batch_size = 8
M = 64
K = 256
N = 300                   # B and C rows of 1200 bytes: not a multiple of 32 bytes
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, M, K, dtype=dtype), torch.randn(K, N, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(batch_size=3, M=7, K=129, N=77), dict(dtype=torch.bfloat16, batch_size=4)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/10_3D_tensor_matrix_multiplication.py at 423217d.
PERF = dict(batch_size=16, M=1024, K=2048, N=768)
