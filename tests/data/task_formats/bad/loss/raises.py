"""Fixture: the forward raises (shape mismatch)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x, y):
        return x + y


def get_inputs():
    return [torch.rand(3, 4), torch.rand(5)]


def get_init_inputs():
    return []
