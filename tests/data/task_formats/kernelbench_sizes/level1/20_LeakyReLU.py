# A KernelBench-format file at the size KernelBench times its level-1 activations (4096 x 393216 float32, 6.4 GB
# per tensor): no LEVEL, CASES or PERF. kgen checks it at a copy scaled along batch_size and times it at its own size.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.leaky_relu(x, negative_slope=self.negative_slope)


batch_size = 4096
dim = 393216


def get_inputs():
    return [torch.rand(batch_size, dim)]


def get_init_inputs():
    return [0.01]
