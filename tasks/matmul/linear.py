"""Fully connected layer: y = x @ W.T + b with nn.Linear's own weight (out, in) and bias (out,)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, bias: bool):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features, bias=bias)
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs a float16 layer

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(x)


batch_size = 128
in_features = 300         # x rows of 1200 bytes: not a multiple of 32 bytes
out_features = 256
bias = True
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_features, dtype=dtype)]


def get_init_inputs():
    return [in_features, out_features, bias]


CASES = [dict(dtype=torch.float16), dict(batch_size=7, in_features=129, out_features=77), dict(bias=False)]

# The perf shape, timed timing-only (never run for values): no KernelBench or MultiKernelBench twin; sized so that
# its tensors (64-512 MiB each) make host dispatch and launch well under 10 % of eager's time.
PERF = dict(batch_size=4096, in_features=4096, out_features=4096)
