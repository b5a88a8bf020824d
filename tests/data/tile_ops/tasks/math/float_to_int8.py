"""A float tensor to int8 after clamping, as .to(torch.int8) truncates."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.clamp(x * 40.0, -128, 127).to(torch.int8)


n = 130
dtype = torch.float32


def get_inputs():
    return [torch.randn(n, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(n=100000), dict(n=7), dict(dtype=torch.float16, n=4099)]
