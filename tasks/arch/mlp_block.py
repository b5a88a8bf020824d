"""Transformer MLP block: y = W2 gelu(W1 x + b1) + b2 (hidden expansion 4x)."""
import torch
import torch.nn as nn

LEVEL = 3


class Model(nn.Module):
    def __init__(self, dim: int, hidden: int):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, dim)
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs float16 layers

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.nn.functional.gelu(self.fc1(x)))


batch_size = 2
seq_len = 50
dim = 192
hidden = 768
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, seq_len, dim, dtype=dtype)]


def get_init_inputs():
    return [dim, hidden]


CASES = [dict(batch_size=1, seq_len=7, dim=100, hidden=300), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): no KernelBench or MultiKernelBench twin; sized so that
# its tensors (64-512 MiB each) make host dispatch and launch well under 10 % of eager's time.
PERF = dict(batch_size=8, seq_len=2048, dim=1024, hidden=4096)
