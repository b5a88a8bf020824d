"""Matrix product with a weight, scale, softmax over the last dimension: y = softmax(scale * (x @ W), dim=-1)."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, k: int, n: int, scale: float):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(k, n) / k ** 0.5)
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(torch.matmul(x, self.weight) * self.scale, dim=-1)


m = 128
k = 256
n = 300                   # softmax rows of 1200 bytes
scale = 0.125
dtype = torch.float32


def get_inputs():
    return [torch.randn(m, k, dtype=dtype)]


def get_init_inputs():
    return [k, n, scale]


CASES = [dict(m=64, n=77), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): the nearest KernelBench problem's size,
# level2/66_Matmul_Dropout_Softmax.py at 423217d (KernelBench's adds a bias and a dropout where this scales).
PERF = dict(m=128, k=16384, n=16384)
