"""Triplet margin loss: mean(max(||a - p||_2 - ||a - n||_2 + margin, 0)) over the batch."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, margin: float):
        super().__init__()
        self.loss = nn.TripletMarginLoss(margin=margin)

    def forward(self, anchor, positive, negative) -> torch.Tensor:
        return self.loss(anchor, positive, negative)


batch_size = 128
dim = 513
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=dtype) for _ in range(3)]


def get_init_inputs():
    return [1.0]


CASES = [dict(dtype=torch.float16), dict(batch_size=3, dim=50001)]   # rows longer than UB: streamed in chunks

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/99_TripletMarginLoss.py at 423217d.
PERF = dict(batch_size=32768, dim=8192)
