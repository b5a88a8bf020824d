"""2-D inclusive prefix sum over the last two dims (a summed-area table, as integral-image and box-filter layers
build): y = x.cumsum(-2).cumsum(-1), accumulated in float32."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.float().cumsum(dim=-2).cumsum(dim=-1).to(x.dtype)


batch = 4
rows = 48
cols = 56
dtype = torch.float32


def get_inputs():
    return [torch.rand(batch, rows, cols, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16, rows=20, cols=24), dict(batch=2, rows=7, cols=1), dict(batch=1, rows=130, cols=33),
         dict(batch=6, rows=1, cols=100)]
