"""Batched matrix multiplication: C[b] = A[b] @ B[b] (torch.bmm)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.bmm(A, B)


batch_size = 8
M = 128
K = 96
N = 77                    # C rows of 308 bytes: not a multiple of 32 bytes
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, M, K, dtype=dtype), torch.randn(batch_size, K, N, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(batch_size=3, M=33, K=65, N=129), dict(dtype=torch.bfloat16, batch_size=4)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/3_Batched_matrix_multiplication.py at 423217d.
PERF = dict(batch_size=128, M=512, K=1024, N=2048)
