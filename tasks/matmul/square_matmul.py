"""Square matrix multiplication: C = A @ B with A, B of shape (N, N)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


N = 256
dtype = torch.float32     # fp16 matmul has no CPU kernel in this PyTorch: bf16 is the half-precision case


def get_inputs():
    return [torch.randn(N, N, dtype=dtype), torch.randn(N, N, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(N=129), dict(N=128, dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/1_Square_matrix_multiplication_.py at 423217d.
PERF = dict(N=4096)
