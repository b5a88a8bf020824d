"""Single-token decode attention against a key/value cache: q is (B, H, 1, D), k and v are (B, H, L, D)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor) -> torch.Tensor:
        scores = torch.matmul(q, k_cache.transpose(-2, -1)) / (q.shape[-1] ** 0.5)
        return torch.matmul(torch.softmax(scores, dim=-1), v_cache)


batch_size = 4
heads = 8
cache_len = 300           # score rows of 1200 bytes
head_dim = 64
dtype = torch.float32


def get_inputs():
    kv = (batch_size, heads, cache_len, head_dim)
    return [torch.randn(batch_size, heads, 1, head_dim, dtype=dtype), torch.randn(kv, dtype=dtype),
            torch.randn(kv, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(batch_size=1, cache_len=1000, head_dim=32), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): MultiKernelBench's size for the same operator,
# reference/attention/kv_cached_attention_inference.py at 460a972 (KernelBench has no such problem).
PERF = dict(batch_size=1, heads=1, cache_len=2048, head_dim=4096)
