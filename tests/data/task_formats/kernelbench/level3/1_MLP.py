import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, input_size, layer_sizes, output_size):
        super().__init__()
        layers = []
        cur = input_size
        for s in layer_sizes:
            layers += [nn.Linear(cur, s), nn.ReLU()]
            cur = s
        layers.append(nn.Linear(cur, output_size))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


batch_size = 2
input_size = 16
layer_sizes = [8, 8]
output_size = 4


def get_inputs():
    return [torch.randn(batch_size, input_size)]


def get_init_inputs():
    return [input_size, layer_sizes, output_size]
