"""L1 row normalization: y = x / mean(|x|) over dimension 1 (keepdim)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x / torch.mean(torch.abs(x), dim=1, keepdim=True)


batch_size = 128
dim = 2049
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/38_L1Norm_.py at 423217d.
PERF = dict(batch_size=32768, dim=65535)
