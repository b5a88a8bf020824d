"""Multi-head self-attention with input and output projections: y = W_o(concat_h softmax(q_h k_h^T / sqrt(d)) v_h)."""
import torch
import torch.nn as nn

LEVEL = 3


class Model(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        self.num_heads = num_heads
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs float16 layers

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, s, e = x.shape
        d = e // self.num_heads

        def split(t):
            return t.view(b, s, self.num_heads, d).transpose(1, 2)

        q, k, v = split(self.q_proj(x)), split(self.k_proj(x)), split(self.v_proj(x))
        attn = torch.softmax(torch.matmul(q, k.transpose(-2, -1)) / (d ** 0.5), dim=-1)
        out = torch.matmul(attn, v).transpose(1, 2).reshape(b, s, e)
        return self.out_proj(out)


batch_size = 2
seq_len = 64
embed_dim = 256
num_heads = 8             # head dim 32
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, seq_len, embed_dim, dtype=dtype)]


def get_init_inputs():
    return [embed_dim, num_heads]


CASES = [dict(batch_size=1, seq_len=33, embed_dim=192, num_heads=3), dict(dtype=torch.float16),
         dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): the nearest KernelBench problem's size,
# level3/31_VisionAttention.py at 423217d (KernelBench's adds a residual and a LayerNorm).
PERF = dict(batch_size=2, seq_len=16384, embed_dim=128, num_heads=4)
