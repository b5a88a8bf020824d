"""Fixture: a forward that draws random numbers (non-deterministic) and a case whose dtype never reaches an input."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x):
        return x + torch.rand_like(x)


n = 16
dtype = torch.float32


def get_inputs():
    return [torch.rand(n)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16)]
