"""Fixture: y = x * scale, where the input shape is derived from dim (CASES overrides must reach derived constants)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        return x * self.scale


dim = 8
shape = (2, dim)
dtype = torch.float32


def get_inputs():
    return [torch.randn(*shape, dtype=dtype)]


def get_init_inputs():
    return [0.5]


CASES = [dict(dim=5), dict(dtype=torch.float16)]

PERF = dict(dim=4096)
