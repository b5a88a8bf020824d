"""Bias-free linear layer, add a learned bias vector, ReLU: y = relu(x @ W^T + bias)."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features, bias=False)
        self.bias = nn.Parameter(torch.randn(out_features))
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs float16 layers

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.linear(x) + self.bias)


batch_size = 96
in_features = 512
out_features = 200        # 800 bytes per fp32 output row
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_features, dtype=dtype)]


def get_init_inputs():
    return [in_features, out_features]


CASES = [dict(batch_size=7, in_features=77), dict(dtype=torch.float16)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level2/76_Gemm_Add_ReLU.py at 423217d.
PERF = dict(batch_size=1024, in_features=8192, out_features=8192)
