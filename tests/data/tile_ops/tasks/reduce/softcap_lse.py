"""Log-sum-exp of soft-capped logits: y = logsumexp(cap * tanh(x / cap), dim=-1) (Gemma-style logit soft-capping)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, cap: float):
        super().__init__()
        self.cap = cap

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.logsumexp(self.cap * torch.tanh(x / self.cap), dim=-1)


rows = 48
vocab = 1000
dtype = torch.float32


def get_inputs():
    return [torch.randn(rows, vocab, dtype=dtype) * 20]


def get_init_inputs():
    return [30.0]


CASES = [dict(dtype=torch.float16), dict(rows=5, vocab=4001)]
