"""Per-channel bias add: y[n, c, h, w] = x[n, c, h, w] + bias[c] (bias broadcast over batch and space)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        return x + bias


batch_size = 8
channels = 64
height = 30
width = 30                # 120 bytes per fp32 row
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, channels, height, width, dtype=dtype),
            torch.randn(channels, 1, 1, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(dtype=torch.bfloat16), dict(batch_size=3, channels=17, height=7, width=9)]

# The perf shape, timed timing-only (never run for values): no KernelBench level-1 twin; sized so that its
# tensors (128-512 MiB each) make host dispatch and launch well under 10 % of eager's time.
PERF = dict(batch_size=128, channels=256, height=64, width=64)
