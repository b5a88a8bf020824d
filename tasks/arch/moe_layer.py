"""Mixture-of-experts MLP layer: top-k softmax routing over small ReLU experts, outputs combined by gate weight."""
import torch
import torch.nn as nn

LEVEL = 3


class Model(nn.Module):
    def __init__(self, dim: int, hidden: int, num_experts: int, top_k: int):
        super().__init__()
        self.router = nn.Linear(dim, num_experts, bias=False)
        self.w_in = nn.Parameter(torch.randn(num_experts, dim, hidden) / dim ** 0.5)
        self.w_out = nn.Parameter(torch.randn(num_experts, hidden, dim) / hidden ** 0.5)
        self.top_k = top_k

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        weights, experts = torch.topk(torch.softmax(self.router(x), dim=-1), self.top_k, dim=-1)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        out = torch.zeros_like(x)
        for slot in range(self.top_k):
            w_in = self.w_in[experts[:, slot]]                 # (tokens, dim, hidden)
            w_out = self.w_out[experts[:, slot]]               # (tokens, hidden, dim)
            h = torch.relu(torch.bmm(x.unsqueeze(1), w_in))
            out = out + weights[:, slot:slot + 1] * torch.bmm(h, w_out).squeeze(1)
        return out


tokens = 64
dim = 96
hidden = 200
num_experts = 8
top_k = 2
dtype = torch.float32


def get_inputs():
    return [torch.randn(tokens, dim, dtype=dtype)]


def get_init_inputs():
    return [dim, hidden, num_experts, top_k]


CASES = [dict(tokens=13, top_k=1), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): no KernelBench or MultiKernelBench twin; sized so that
# its tensors (64-512 MiB each) make host dispatch and launch well under 10 % of eager's time.
PERF = dict(tokens=256, dim=512, hidden=512, num_experts=8, top_k=2)
