"""Softmax over the steps of each feature with a learned temperature per feature: y = softmax(x / t[d], dim=1)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, dim: int, features: int):
        super().__init__()
        self.dim = dim
        self.temperature = nn.Parameter(0.5 + torch.rand(features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x / self.temperature, dim=self.dim)


batch = 5
steps = 33
features = 40
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch, steps, features, dtype=dtype)]


def get_init_inputs():
    return [1, features]


CASES = [dict(dtype=torch.float16), dict(features=1, batch=19)]
