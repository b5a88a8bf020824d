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

# The perf shape, timed timing-only (never run for values): MultiKernelBench's size for the same operator,
# reference/npukernelbench_level2/1_rotary_mul (its largest case, 1 x 8 x 32768 x 64) at 460a972 (KernelBench has no such problem).
PERF = dict(batch_size=1, heads=8, seq_len=32768, head_dim=64)
