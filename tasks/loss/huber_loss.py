"""Smooth L1 (Huber) loss with beta 1: 0.5 d^2 if |d| < 1 else |d| - 0.5, d = pred - target, mean."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, beta: float):
        super().__init__()
        self.beta = beta

    def forward(self, pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.smooth_l1_loss(pred, target, beta=self.beta)


batch_size = 128
dim = 777
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=dtype) * 2, torch.randn(batch_size, dim, dtype=dtype)]


def get_init_inputs():
    return [1.0]


CASES = [dict(dtype=torch.float16)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/96_HuberLoss.py at 423217d.
PERF = dict(batch_size=32768, dim=32768)
