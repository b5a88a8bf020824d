"""Log of the cumulative sum of exponentials: y[..., i] = log(sum_{j<=i} exp(x[..., j])), computed stably."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.logcumsumexp(x, dim=self.dim)


rows = 64
length = 1000             # 4000 bytes per row: not a multiple of 32 bytes
dim = 1
dtype = torch.float32


def get_inputs():
    return [torch.randn(rows, length, dtype=dtype) * 4.0]


def get_init_inputs():
    return [dim]


CASES = [dict(rows=129, length=77, dim=0), dict(dtype=torch.bfloat16, length=129)]
