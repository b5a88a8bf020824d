"""Instance normalization: each (sample, channel) plane normalized over H x W (nn.InstanceNorm2d, no affine)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.inorm = nn.InstanceNorm2d(num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.inorm(x)


batch_size = 8
features = 32
height = 50
width = 50                # 200 bytes per fp32 row
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, features, height, width, dtype=dtype) + 3]


def get_init_inputs():
    return [features]


CASES = [dict(dtype=torch.float16), dict(batch_size=2, features=3, height=127, width=129)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/34_InstanceNorm.py at 423217d.
PERF = dict(batch_size=112, features=64, height=512, width=512)
