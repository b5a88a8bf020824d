"""GEGLU on a packed input: a, b = x.chunk(2, dim=-1); y = gelu(a) * b (exact erf GELU)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        a, b = x.chunk(2, dim=-1)
        return torch.nn.functional.gelu(a) * b


tokens = 64
hidden = 384
dtype = torch.float32


def get_inputs():
    return [torch.randn(tokens, 2 * hidden, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(tokens=7, hidden=100)]
