import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)


batch_size = 4
dim = 64


def get_inputs():
    return [torch.rand(batch_size, dim)]


def get_init_inputs():
    return []
