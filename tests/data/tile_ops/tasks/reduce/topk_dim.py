"""The 4 largest values along a chosen dimension and their indices, largest first: torch.topk(x, 4, dim)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor):
        values, indices = torch.topk(x, 4, dim=self.dim)
        return values, indices


batch = 6
length = 300
width = 37
topk_dim = -1
dtype = torch.float32


def get_inputs():
    # (a*i + b*j + c*k) mod 2039 (a prime above every dim): distinct along each dim, and exact in float16, so the
    # indices are unambiguous whichever dim is picked
    a, b, c = (int(v) for v in torch.randint(1, 2039, (3,)))
    i = torch.arange(batch).view(-1, 1, 1)
    j = torch.arange(length).view(1, -1, 1)
    k = torch.arange(width).view(1, 1, -1)
    return [(((a * i + b * j + c * k) % 2039 - 1019).to(torch.float32) / 16).to(dtype)]


def get_init_inputs():
    return [topk_dim]


CASES = [dict(dtype=torch.float16), dict(topk_dim=1), dict(topk_dim=0, dtype=torch.float16)]
