"""Linear layer, log-sum-exp over features (keepdim), ReLU: y = relu(logsumexp(x @ W^T + b, dim=1))."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs float16 layers

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(torch.logsumexp(self.linear(x), dim=1, keepdim=True))


batch_size = 64
in_features = 256
out_features = 777
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_features, dtype=dtype)]


def get_init_inputs():
    return [in_features, out_features]


CASES = [dict(dtype=torch.float16)]

# The perf shape, timed timing-only (never run for values): the nearest KernelBench problem's size,
# level2/64_Gemm_LogSumExp_LeakyReLU_LeakyReLU_GELU_GELU.py at 423217d (KernelBench's ends with two leaky_relu and two
# gelu on the row results).
PERF = dict(batch_size=1024, in_features=8192, out_features=8192)
