"""Linear layer, elementwise minimum with a constant, subtract the constant: y = min(x @ W^T + b, c) - c."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, constant: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.constant = constant
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs float16 layers

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.clamp(self.linear(x), max=self.constant) - self.constant


batch_size = 128
in_features = 129
out_features = 256
constant = 0.3
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_features, dtype=dtype)]


def get_init_inputs():
    return [in_features, out_features, constant]


CASES = [dict(batch_size=1, in_features=64), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level2/68_Matmul_Min_Subtract.py at 423217d.
PERF = dict(batch_size=128, in_features=16384, out_features=16384, constant=2.0)
