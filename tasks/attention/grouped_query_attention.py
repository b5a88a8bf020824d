"""Grouped-query attention: each of kv_heads key/value heads serves heads // kv_heads query heads."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        group = q.shape[1] // k.shape[1]
        k = torch.repeat_interleave(k, group, dim=1)
        v = torch.repeat_interleave(v, group, dim=1)
        scores = torch.matmul(q, k.transpose(-2, -1)) / (q.shape[-1] ** 0.5)
        return torch.matmul(torch.softmax(scores, dim=-1), v)


batch_size = 2
heads = 8
kv_heads = 2
seq_len = 129
head_dim = 64
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, heads, seq_len, head_dim, dtype=dtype),
            torch.randn(batch_size, kv_heads, seq_len, head_dim, dtype=dtype),
            torch.randn(batch_size, kv_heads, seq_len, head_dim, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(heads=4, kv_heads=1, seq_len=64, head_dim=32), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]
