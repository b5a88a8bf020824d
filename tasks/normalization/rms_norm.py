"""RMS normalization (LLaMA style): y = x / sqrt(mean(x^2, last dim) + eps) * weight."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, hidden: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(hidden) + 0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xf = x.float()
        y = xf * torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + self.eps)
        return (y * self.weight).to(x.dtype)


tokens = 256
hidden = 1000
dtype = torch.float32


def get_inputs():
    return [torch.randn(tokens, hidden, dtype=dtype)]


def get_init_inputs():
    return [hidden, 1e-6]


CASES = [dict(dtype=torch.float16, hidden=4096, tokens=64), dict(dtype=torch.bfloat16), dict(tokens=7, hidden=129)]

# The perf shape, timed timing-only (never run for values): the nearest KernelBench problem's size,
# level1/36_RMSNorm_.py at 423217d (KernelBench's normalises 112 x 64 x 512 x 512 over the 64 channels without a
# weight; here the same elements in rows of 64).
PERF = dict(tokens=29360128, hidden=64)
