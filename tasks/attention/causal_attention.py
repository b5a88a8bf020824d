"""Causal (lower-triangular) scaled dot-product attention: position i attends to keys 0..i only."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        s = q.shape[-2]
        scores = torch.matmul(q, k.transpose(-2, -1)) / (q.shape[-1] ** 0.5)
        future = torch.triu(torch.ones(s, s, dtype=torch.bool, device=q.device), diagonal=1)
        scores = scores.masked_fill(future, float("-inf"))
        return torch.matmul(torch.softmax(scores, dim=-1), v)


batch_size = 2
heads = 4
seq_len = 200             # score rows of 800 bytes
head_dim = 64
dtype = torch.float32


def get_inputs():
    shape = (batch_size, heads, seq_len, head_dim)
    return [torch.randn(shape, dtype=dtype), torch.randn(shape, dtype=dtype), torch.randn(shape, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(batch_size=1, seq_len=65, head_dim=32), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): the nearest KernelBench problem's size,
# level3/43_MinGPTCausalAttention.py at 423217d (KernelBench's includes the qkv and output projections).
PERF = dict(batch_size=128, heads=8, seq_len=512, head_dim=96)
