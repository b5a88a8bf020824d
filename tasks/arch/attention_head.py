"""One self-attention head with its own q/k/v projections: y = softmax(x Wq (x Wk)^T / sqrt(d)) x Wv."""
import torch
import torch.nn as nn

LEVEL = 3


class Model(nn.Module):
    def __init__(self, embed_dim: int, head_dim: int):
        super().__init__()
        self.query = nn.Linear(embed_dim, head_dim, bias=False)
        self.key = nn.Linear(embed_dim, head_dim, bias=False)
        self.value = nn.Linear(embed_dim, head_dim, bias=False)
        self.head_dim = head_dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        q, k, v = self.query(x), self.key(x), self.value(x)
        attn = torch.softmax(torch.matmul(q, k.transpose(-2, -1)) / (self.head_dim ** 0.5), dim=-1)
        return torch.matmul(attn, v)


batch_size = 4
seq_len = 100
embed_dim = 256
head_dim = 64
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, seq_len, embed_dim, dtype=dtype)]


def get_init_inputs():
    return [embed_dim, head_dim]


CASES = [dict(batch_size=1, seq_len=77, head_dim=32), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): no KernelBench or MultiKernelBench twin; sized so that
# its tensors (64-512 MiB each) make host dispatch and launch well under 10 % of eager's time.
PERF = dict(batch_size=16, seq_len=2048, embed_dim=1024, head_dim=128)
