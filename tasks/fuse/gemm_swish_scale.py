"""Linear layer, Swish (x * sigmoid(x)), then multiply by a constant: y = scale * swish(x @ W^T + b)."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, scale: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = scale
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs float16 layers

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.linear(x)
        return h * torch.sigmoid(h) * self.scale


batch_size = 128
in_features = 256
out_features = 300
scale = 2.0
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_features, dtype=dtype)]


def get_init_inputs():
    return [in_features, out_features, scale]


CASES = [dict(batch_size=33, scale=0.5), dict(dtype=torch.float16)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level2/59_Matmul_Swish_Scaling.py at 423217d.
PERF = dict(batch_size=128, in_features=32768, out_features=32768, scale=2.0)
