"""Layer normalization over the last dimension with affine weight and bias (nn.LayerNorm, eps 1e-5)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.ln(x.float()).to(x.dtype)   # fp32 statistics for fp16/bf16 inputs


batch_size = 16
seq_len = 77
hidden = 768
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, seq_len, hidden, dtype=dtype) * 2 + 0.5]


def get_init_inputs():
    return [(hidden,)]


CASES = [dict(hidden=1000), dict(dtype=torch.float16), dict(dtype=torch.bfloat16, batch_size=4)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/40_LayerNorm.py at 423217d.
PERF = dict(batch_size=16, seq_len=1, hidden=4194304)
