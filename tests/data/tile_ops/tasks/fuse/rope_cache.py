"""Rotary position embedding with a cos/sin cache of half the head dim (rotate-half convention):
x1, x2 = x.chunk(2, -1); y = cat(x1 * cos - x2 * sin, x2 * cos + x1 * sin), cos and sin [seq, head_dim / 2]
broadcast over the batch and the heads."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
        x1, x2 = x.chunk(2, dim=-1)
        return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)


batch = 2
heads = 4
seq = 48
head_dim = 64
dtype = torch.float32


def get_inputs():
    pos = torch.arange(seq, dtype=torch.float32).unsqueeze(1)
    inv = 10000.0 ** (-torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim)
    angle = pos * inv                                     # [seq, head_dim / 2]
    return [torch.randn(batch, heads, seq, head_dim, dtype=dtype), angle.cos().to(dtype), angle.sin().to(dtype)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(batch=3, heads=2, seq=7, head_dim=128), dict(batch=1, heads=1, seq=130, head_dim=32),
         dict(head_dim=2, dtype=torch.float16)]   # row mode: one element per chunk
