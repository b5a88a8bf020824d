"""Linear layer, GroupNorm over feature groups, HardTanh: y = hardtanh(group_norm(x @ W^T + b), -1, 1)."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, num_groups: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.norm = nn.GroupNorm(num_groups, out_features)
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs float16 layers

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.hardtanh(self.norm(self.linear(x)), -1.0, 1.0)


batch_size = 64
in_features = 256
out_features = 480        # 8 groups of 60 features: 240 bytes per group
num_groups = 8
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_features, dtype=dtype)]


def get_init_inputs():
    return [in_features, out_features, num_groups]


CASES = [dict(batch_size=13, out_features=300, num_groups=5), dict(dtype=torch.float16)]

# The perf shape, timed timing-only (never run for values): the nearest KernelBench problem's size,
# level2/30_Gemm_GroupNorm_Hardtanh.py at 423217d (KernelBench's hardtanh bounds are -2 and 2).
PERF = dict(batch_size=1024, in_features=8192, out_features=8192, num_groups=16)
