"""ReLU on a small tensor: the task of the memorising attack in tests/attacks_test.sh (its outputs fit in a table)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x)


def get_inputs():
    return [torch.randn(4, 64)]


def get_init_inputs():
    return []
