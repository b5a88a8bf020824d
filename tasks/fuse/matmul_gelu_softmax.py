"""Linear layer, GELU, softmax over features: y = softmax(gelu(x @ W^T + b), dim=1)."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs float16 layers

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(torch.nn.functional.gelu(self.linear(x)), dim=1)


batch_size = 100
in_features = 320
out_features = 250
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_features, dtype=dtype)]


def get_init_inputs():
    return [in_features, out_features]


CASES = [dict(dtype=torch.float16)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level2/99_Matmul_GELU_Softmax.py at 423217d.
PERF = dict(batch_size=1024, in_features=8192, out_features=8192)
