"""L2 row normalization: y = x / ||x||_2 over the last dimension (eps 1e-12, as F.normalize)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.normalize(x, p=2.0, dim=-1)


batch_size = 256
dim = 1000
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(batch_size=3, dim=16385)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/39_L2Norm_.py at 423217d.
PERF = dict(batch_size=32768, dim=65535)
