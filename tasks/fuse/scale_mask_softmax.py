"""Scale attention scores, fill masked-out positions with -inf, softmax: y = softmax(where(mask, scale * x, -inf))."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        scores = (x * self.scale).masked_fill(~mask, float("-inf"))
        return torch.softmax(scores, dim=-1)


batch = 4
heads = 8
seq_q = 64
seq_k = 129               # rows of 516 bytes
scale = 0.125
dtype = torch.float32


def get_inputs():
    x = torch.randn(batch, heads, seq_q, seq_k, dtype=dtype)
    mask = torch.rand(batch, 1, seq_q, seq_k) > 0.3       # bool, broadcast over heads
    mask[..., 0] = True                                   # no row is fully masked
    return [x, mask]


def get_init_inputs():
    return [scale]


CASES = [dict(seq_q=16, seq_k=300), dict(dtype=torch.float16)]

# The perf shape, timed timing-only (never run for values): no KernelBench or MultiKernelBench twin; sized so that
# its tensors (64-512 MiB each) make host dispatch and launch well under 10 % of eager's time.
PERF = dict(batch=4, heads=16, seq_q=1024, seq_k=1024)
