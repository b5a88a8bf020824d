"""Pre-norm transformer encoder block: x + MHA(LN(x)), then + MLP(LN(.)) with GELU (no dropout)."""
import torch
import torch.nn as nn

LEVEL = 3


class Model(nn.Module):
    def __init__(self, dim: int, num_heads: int, mlp_hidden: int):
        super().__init__()
        self.num_heads = num_heads
        self.norm1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, mlp_hidden)
        self.fc2 = nn.Linear(mlp_hidden, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, s, e = x.shape
        h, d = self.num_heads, e // self.num_heads
        q, k, v = self.qkv(self.norm1(x)).view(b, s, 3, h, d).permute(2, 0, 3, 1, 4)
        attn = torch.softmax(torch.matmul(q, k.transpose(-2, -1)) / (d ** 0.5), dim=-1)
        x = x + self.proj(torch.matmul(attn, v).transpose(1, 2).reshape(b, s, e))
        return x + self.fc2(torch.nn.functional.gelu(self.fc1(self.norm2(x))))


batch_size = 2
seq_len = 50
dim = 128
num_heads = 4             # head dim 32
mlp_hidden = 512
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, seq_len, dim, dtype=dtype)]


def get_init_inputs():
    return [dim, num_heads, mlp_hidden]


CASES = [dict(batch_size=1, seq_len=17, dim=96, num_heads=3, mlp_hidden=200), dict(dtype=torch.float16),
         dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): the nearest KernelBench problem's size,
# level3/44_MiniGPTBlock.py at 423217d (KernelBench's block is causal and uses the tanh GELU).
PERF = dict(batch_size=128, seq_len=512, dim=768, num_heads=8, mlp_hidden=3072)
