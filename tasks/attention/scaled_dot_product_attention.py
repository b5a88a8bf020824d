"""Scaled dot-product attention on given q, k, v: y = softmax(q @ k^T / sqrt(d)) @ v."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        scores = torch.matmul(q, k.transpose(-2, -1)) / (q.shape[-1] ** 0.5)
        return torch.matmul(torch.softmax(scores, dim=-1), v)


batch_size = 2
heads = 8
seq_len = 128
head_dim = 64
dtype = torch.float32


def get_inputs():
    shape = (batch_size, heads, seq_len, head_dim)
    return [torch.randn(shape, dtype=dtype), torch.randn(shape, dtype=dtype), torch.randn(shape, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(batch_size=1, heads=4, seq_len=77, head_dim=32), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/97_ScaledDotProductAttention.py at 423217d.
PERF = dict(batch_size=32, heads=32, seq_len=512, head_dim=1024)
