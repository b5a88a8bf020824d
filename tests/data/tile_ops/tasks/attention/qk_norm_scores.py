"""QK-RMSNorm attention scores: the queries and keys RMS-normalised over the head dim with their own weights
(as QK-norm layers do), then scores = q_n @ k_n^T * scale per batch and head."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, head_dim: int, scale: float):
        super().__init__()
        self.scale = scale
        self.q_weight = nn.Parameter(torch.ones(head_dim) + 0.1 * torch.randn(head_dim))
        self.k_weight = nn.Parameter(torch.ones(head_dim) + 0.1 * torch.randn(head_dim))

    def forward(self, q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
        def rms(x, w):
            xf = x.float()
            return (xf * torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * w.float()).to(x.dtype)
        return rms(q, self.q_weight) @ rms(k, self.k_weight).transpose(-1, -2) * self.scale


batch = 2
heads = 4
seq = 64
head_dim = 64
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch, heads, seq, head_dim, dtype=dtype), torch.randn(batch, heads, seq, head_dim, dtype=dtype)]


def get_init_inputs():
    return [head_dim, 0.125]


CASES = [dict(dtype=torch.float16), dict(batch=1, heads=3, seq=40, head_dim=128)]
