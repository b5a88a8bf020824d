"""Softmax over a chosen dimension of a 4-D tensor: y = torch.softmax(x, dim) (channels by default, as after a conv)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=self.dim)


batch = 4
channels = 24
height = 9
width = 15             # inner = 135 columns: chunks of 16 leave a tail
softmax_dim = 1
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch, channels, height, width, dtype=dtype) * 3]


def get_init_inputs():
    return [softmax_dim]


CASES = [dict(dtype=torch.float16), dict(softmax_dim=-1), dict(softmax_dim=0, batch=3), dict(softmax_dim=2, width=1)]
