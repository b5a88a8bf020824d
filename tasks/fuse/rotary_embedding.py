"""Rotary position embedding (rotate-half form): y = x * cos + rotate_half(x) * sin, rotate_half([a, b]) = [-b, a]."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
        half = x.shape[-1] // 2
        rotated = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
        return x * cos + rotated * sin


batch_size = 2
heads = 8
seq_len = 100
head_dim = 64
dtype = torch.float32


def get_inputs():
    x = torch.randn(batch_size, heads, seq_len, head_dim, dtype=dtype)
    angle = torch.rand(seq_len, head_dim) * 6.2831853
    return [x, torch.cos(angle).to(dtype), torch.sin(angle).to(dtype)]


def get_init_inputs():
    return []


CASES = [dict(seq_len=77, head_dim=32), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]
