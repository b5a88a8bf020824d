"""SwiGLU gate on a packed input: split the last dimension in halves a, b; y = silu(a) * b."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        a, b = x.chunk(2, dim=-1)
        return torch.nn.functional.silu(a) * b


batch_size = 64
seq_len = 8
hidden = 344              # each half has 172 elements: 688 bytes
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, seq_len, 2 * hidden, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(batch_size=5, seq_len=3, hidden=1000), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): MultiKernelBench's size for the same operator,
# reference/npukernelbench_level1/2_swi_glu (its largest dim=-1 case, x 2677 x 13824) at 460a972 (KernelBench has no such problem).
PERF = dict(batch_size=2677, seq_len=1, hidden=6912)
