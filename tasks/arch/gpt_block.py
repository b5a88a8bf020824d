"""Decoder-only (GPT) block: causal pre-norm self-attention and a tanh-GELU MLP, each with a residual."""
import torch
import torch.nn as nn

LEVEL = 3


class Model(nn.Module):
    def __init__(self, dim: int, num_heads: int):
        super().__init__()
        self.num_heads = num_heads
        self.ln1 = nn.LayerNorm(dim)
        self.attn_in = nn.Linear(dim, 3 * dim)
        self.attn_out = nn.Linear(dim, dim)
        self.ln2 = nn.LayerNorm(dim)
        self.fc = nn.Linear(dim, 4 * dim)
        self.fc_out = nn.Linear(4 * dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, s, e = x.shape
        h, d = self.num_heads, e // self.num_heads
        q, k, v = self.attn_in(self.ln1(x)).split(e, dim=-1)
        q, k, v = (t.view(b, s, h, d).transpose(1, 2) for t in (q, k, v))
        scores = torch.matmul(q, k.transpose(-2, -1)) / (d ** 0.5)
        future = torch.triu(torch.ones(s, s, dtype=torch.bool, device=x.device), diagonal=1)
        attn = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
        x = x + self.attn_out(torch.matmul(attn, v).transpose(1, 2).reshape(b, s, e))
        return x + self.fc_out(torch.nn.functional.gelu(self.fc(self.ln2(x)), approximate="tanh"))


batch_size = 2
seq_len = 64
dim = 128
num_heads = 4
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, seq_len, dim, dtype=dtype)]


def get_init_inputs():
    return [dim, num_heads]


CASES = [dict(batch_size=1, seq_len=33, dim=160, num_heads=5), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level3/44_MiniGPTBlock.py at 423217d.
PERF = dict(batch_size=128, seq_len=512, dim=768, num_heads=8)
