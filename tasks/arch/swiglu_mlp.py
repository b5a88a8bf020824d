"""LLaMA-style gated MLP: y = W_down(silu(W_gate x) * (W_up x)), all bias-free."""
import torch
import torch.nn as nn

LEVEL = 3


class Model(nn.Module):
    def __init__(self, dim: int, hidden: int):
        super().__init__()
        self.gate = nn.Linear(dim, hidden, bias=False)
        self.up = nn.Linear(dim, hidden, bias=False)
        self.down = nn.Linear(hidden, dim, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down(torch.nn.functional.silu(self.gate(x)) * self.up(x))


batch_size = 2
seq_len = 64
dim = 256
hidden = 344              # hidden rows of 1376 bytes
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, seq_len, dim, dtype=dtype)]


def get_init_inputs():
    return [dim, hidden]


CASES = [dict(batch_size=1, seq_len=1), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): no KernelBench or MultiKernelBench twin; sized so that
# its tensors (64-512 MiB each) make host dispatch and launch well under 10 % of eager's time.
PERF = dict(batch_size=8, seq_len=2048, dim=1024, hidden=2752)
