"""Residual add, RMSNorm, then int8 quantisation with a static scale: h = x + residual; q = int8(clamp(round(
rms_norm(h) * weight / scale), -128, 127)). Returns (h, q), as fused add-rmsnorm-quant layers do."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, hidden: int, scale: float):
        super().__init__()
        self.scale = scale
        self.weight = nn.Parameter(torch.ones(hidden) + 0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor, residual: torch.Tensor):
        h = x + residual
        hf = h.float()
        y = hf * torch.rsqrt(hf.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.weight
        return h, torch.clamp(torch.round(y / self.scale), -128, 127).to(torch.int8)


tokens = 64
hidden = 256
dtype = torch.float32


def get_inputs():
    return [torch.randn(tokens, hidden, dtype=dtype), torch.randn(tokens, hidden, dtype=dtype)]


def get_init_inputs():
    return [hidden, 0.03125]


CASES = [dict(dtype=torch.float16), dict(tokens=7, hidden=129)]
