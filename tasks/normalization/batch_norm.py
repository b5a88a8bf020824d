"""Batch normalization of an NCHW tensor with batch statistics (nn.BatchNorm2d in training mode, affine)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.bn(x)


batch_size = 16
features = 32
height = 30
width = 30
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, features, height, width, dtype=dtype) * 3 + 1]


def get_init_inputs():
    return [features]


CASES = [dict(dtype=torch.float16), dict(batch_size=5, features=7, height=13, width=11)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/33_BatchNorm.py at 423217d.
PERF = dict(batch_size=64, features=64, height=512, width=512)
