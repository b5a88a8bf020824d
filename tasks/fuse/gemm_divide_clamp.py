"""Linear layer, divide by a constant, clamp to [min_val, max_val]."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, divisor: float, min_val: float, max_val: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.divisor = divisor
        self.min_val = min_val
        self.max_val = max_val
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs float16 layers

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.clamp(self.linear(x) / self.divisor, self.min_val, self.max_val)


batch_size = 64
in_features = 500
out_features = 384
divisor = 2.0
min_val = -0.25
max_val = 0.25
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_features, dtype=dtype)]


def get_init_inputs():
    return [in_features, out_features, divisor, min_val, max_val]


CASES = [dict(batch_size=17, out_features=100), dict(dtype=torch.float16)]

# The perf shape, timed timing-only (never run for values): the nearest KernelBench problem's size,
# level2/81_Gemm_Swish_Divide_Clamp_Tanh_Clamp.py at 423217d (KernelBench's adds a swish before and a tanh and clamp
# after).
PERF = dict(batch_size=1024, in_features=8192, out_features=8192, divisor=2.0, min_val=-1.0, max_val=1.0)
