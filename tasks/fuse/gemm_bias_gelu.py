"""Linear layer then GELU: y = gelu(x @ W^T + b)."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs float16 layers

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.gelu(self.linear(x))


batch_size = 128
in_features = 300         # 1200 bytes per fp32 row: not a multiple of 32 bytes
out_features = 256
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_features, dtype=dtype)]


def get_init_inputs():
    return [in_features, out_features]


CASES = [dict(batch_size=37, out_features=129), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): the nearest KernelBench problem's size,
# level2/86_Matmul_Divide_GELU.py at 423217d (KernelBench's divides by 10 before the GELU).
PERF = dict(batch_size=1024, in_features=8192, out_features=8192)
