"""Cosine embedding loss: mean over rows of 1 - cos(pred_i, target_i) (cosine over the last dimension)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        cos = torch.nn.functional.cosine_similarity(pred, target, dim=1)
        return torch.mean(1 - cos)


batch_size = 256
dim = 1000
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=dtype), torch.randn(batch_size, dim, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(batch_size=3, dim=4097)]

# The perf shape, timed timing-only (never run for values): MultiKernelBench's size for the same operator,
# reference/loss/cosine_similarity_loss.py at 460a972 (KernelBench has no such problem).
PERF = dict(batch_size=128, dim=4096)
