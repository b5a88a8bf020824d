"""Sinkhorn normalisation of a batch of score matrices: p = exp(x - row max), then 5 rounds of dividing each row by
its sum and each column by its sum (a doubly stochastic matrix in the limit), as in optimal-transport and
permutation-learning layers."""
import torch
import torch.nn as nn

LEVEL = 1
ROUNDS = 5


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xf = x.float()
        p = torch.exp(xf - xf.amax(dim=-1, keepdim=True))
        for _ in range(ROUNDS):
            p = p / p.sum(dim=-1, keepdim=True)
            p = p / p.sum(dim=-2, keepdim=True)
        return p.to(x.dtype)


batch = 3
heads = 4
rows = 24
cols = 40
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch, heads, rows, cols, dtype=dtype) * 2]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(batch=2, heads=1, rows=64, cols=64), dict(batch=5, heads=3, rows=8, cols=1),
         dict(batch=1, heads=2, rows=130, cols=17, dtype=torch.float16)]
