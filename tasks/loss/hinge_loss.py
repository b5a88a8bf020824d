"""Hinge loss for labels in {-1, +1}: mean(max(0, 1 - pred * label))."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, pred: torch.Tensor, label: torch.Tensor) -> torch.Tensor:
        return torch.mean(torch.clamp(1 - pred * label, min=0))


batch_size = 512
dim = 300
dtype = torch.float32


def get_inputs():
    label = torch.randint(0, 2, (batch_size, dim)).to(dtype) * 2 - 1
    return [torch.randn(batch_size, dim, dtype=dtype), label]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(batch_size=1, dim=65537)]

# The perf shape, timed timing-only (never run for values): the nearest KernelBench problem's size,
# level1/100_HingeLoss.py at 423217d (KernelBench's targets are one vector broadcast over the rows; here a full
# matrix, twice the bytes).
PERF = dict(batch_size=32768, dim=32768)
