"""Mixture-of-experts router: softmax(x W^T) over experts, top-k, renormalise; returns (weights, int64 expert ids)."""
import torch
import torch.nn as nn

LEVEL = 3


class Model(nn.Module):
    def __init__(self, dim: int, num_experts: int, top_k: int):
        super().__init__()
        self.router = nn.Linear(dim, num_experts, bias=False)
        self.top_k = top_k

    def forward(self, x: torch.Tensor):
        probs = torch.softmax(self.router(x), dim=-1)
        weights, experts = torch.topk(probs, self.top_k, dim=-1)
        return weights / weights.sum(dim=-1, keepdim=True), experts


tokens = 500
dim = 256
num_experts = 60          # expert rows of 240 bytes
top_k = 4
dtype = torch.float32


def get_inputs():
    return [torch.randn(tokens, dim, dtype=dtype)]


def get_init_inputs():
    return [dim, num_experts, top_k]


CASES = [dict(tokens=33, num_experts=8, top_k=2), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): no KernelBench or MultiKernelBench twin; sized so that
# its tensors (64-512 MiB each) make host dispatch and launch well under 10 % of eager's time.
PERF = dict(tokens=32768, dim=4096, num_experts=64, top_k=8)
