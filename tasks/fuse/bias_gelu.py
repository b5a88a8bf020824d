"""Add a per-feature bias (broadcast over rows), then GELU: y = gelu(x + bias)."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.gelu(x + bias)


batch_size = 128
dim = 1000
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=dtype), torch.randn(dim, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(batch_size=3, dim=77), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): no KernelBench or MultiKernelBench twin; sized so that
# its tensors (64-512 MiB each) make host dispatch and launch well under 10 % of eager's time.
PERF = dict(batch_size=16384, dim=4096)
