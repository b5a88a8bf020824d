"""One-hot of the maximum along a chosen dimension: y = (x == x.amax(dim, keepdim=True)) as x's dtype."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return (x == x.amax(dim=self.dim, keepdim=True)).to(x.dtype)


batch = 6
classes = 21
width = 37
hardmax_dim = 1
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch, classes, width, dtype=dtype)]


def get_init_inputs():
    return [hardmax_dim]


CASES = [dict(dtype=torch.float16), dict(hardmax_dim=-1)]
