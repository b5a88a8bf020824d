"""KL divergence KL(target || pred) from log-probabilities and probabilities, 'batchmean' reduction."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, log_pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.kl_div(log_pred, target, reduction="batchmean")


batch_size = 128
dim = 1001
dtype = torch.float32


def get_inputs():
    log_pred = torch.log_softmax(torch.randn(batch_size, dim), dim=-1).to(dtype)
    target = torch.softmax(torch.randn(batch_size, dim), dim=-1).to(dtype)
    return [log_pred, target]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(batch_size=5, dim=70001)]   # rows longer than UB: streamed in chunks

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/98_KLDivLoss.py at 423217d.
PERF = dict(batch_size=16384, dim=16384)
