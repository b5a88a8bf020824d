"""Softmin over a chosen dimension: y = torch.nn.functional.softmin(x, dim) = softmax(-x, dim)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.softmin(x, dim=self.dim)


batch = 3
length = 40
features = 70
softmin_dim = 1
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch, length, features, dtype=dtype) * 2]


def get_init_inputs():
    return [softmin_dim]


CASES = [dict(dtype=torch.float16), dict(softmin_dim=2)]
