"""Multi-head cross-attention: queries from x (B, S, E), keys and values from context (B, T, C), output projection."""
import torch
import torch.nn as nn

LEVEL = 3


class Model(nn.Module):
    def __init__(self, embed_dim: int, context_dim: int, num_heads: int):
        super().__init__()
        self.num_heads = num_heads
        self.q_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.kv_proj = nn.Linear(context_dim, 2 * embed_dim, bias=False)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs float16 layers

    def forward(self, x: torch.Tensor, context: torch.Tensor) -> torch.Tensor:
        b, s, e = x.shape
        t = context.shape[1]
        h, d = self.num_heads, e // self.num_heads
        q = self.q_proj(x).view(b, s, h, d).transpose(1, 2)
        k, v = self.kv_proj(context).chunk(2, dim=-1)
        k = k.reshape(b, t, h, d).transpose(1, 2)
        v = v.reshape(b, t, h, d).transpose(1, 2)
        attn = torch.softmax(torch.matmul(q, k.transpose(-2, -1)) / (d ** 0.5), dim=-1)
        return self.out_proj(torch.matmul(attn, v).transpose(1, 2).reshape(b, s, e))


batch_size = 2
seq_len = 64
context_len = 77          # score rows of 308 bytes
embed_dim = 256
context_dim = 160
num_heads = 4             # head dim 64
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, seq_len, embed_dim, dtype=dtype),
            torch.randn(batch_size, context_len, context_dim, dtype=dtype)]


def get_init_inputs():
    return [embed_dim, context_dim, num_heads]


CASES = [dict(seq_len=1, context_len=200), dict(dtype=torch.float16)]

# The perf shape, timed timing-only (never run for values): MultiKernelBench's size for the same operator,
# reference/attention/cross_attention.py at 460a972 (KernelBench has no such problem).
PERF = dict(batch_size=16, seq_len=64, context_len=128, embed_dim=512, context_dim=512, num_heads=8)
