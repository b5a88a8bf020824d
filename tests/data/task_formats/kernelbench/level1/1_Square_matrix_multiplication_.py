import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, A, B):
        return torch.matmul(A, B)


N = 32


def get_inputs():
    return [torch.randn(N, N), torch.randn(N, N)]


def get_init_inputs():
    return []
