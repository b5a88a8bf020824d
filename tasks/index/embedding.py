"""Embedding lookup: out[b, s, :] = weight[indices[b, s], :] (weight passed as an input)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LEVEL = 1


class Model(nn.Module):
    def forward(self, indices: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
        return F.embedding(indices, weight)


batch_size = 16
seq_len = 77
num_embeddings = 5000
embedding_dim = 300       # 1200 bytes per row: not a multiple of 32 bytes
index_dtype = torch.int64
dtype = torch.float32


def get_inputs():
    indices = torch.randint(0, num_embeddings, (batch_size, seq_len), dtype=index_dtype)
    weight = torch.randn(num_embeddings, embedding_dim, dtype=dtype)
    return [indices, weight]


def get_init_inputs():
    return []


CASES = [
    dict(index_dtype=torch.int32),
    dict(dtype=torch.float16, embedding_dim=128),
    dict(dtype=torch.bfloat16, num_embeddings=1000, embedding_dim=33),
]

# The perf shape, timed timing-only (never run for values): MultiKernelBench's size for the same operator,
# reference/index/embedding.py at 460a972 (KernelBench has no such problem).
PERF = dict(batch_size=512, seq_len=128, num_embeddings=100000, embedding_dim=768)
