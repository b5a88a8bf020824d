"""Running maximum that restarts where `reset` is True: y[b, t] = max(x[b, s..t]), s the last step <= t with
reset[b, s] (or 0). A per-episode running maximum over a batch of concatenated episodes."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, reset: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        run = x[..., 0]
        for t in range(x.shape[-1]):
            run = torch.where(reset[..., t], x[..., t], torch.maximum(run, x[..., t]))
            out[..., t] = run
        return out


batch = 24
steps = 128
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch, steps, dtype=dtype), torch.rand(batch, steps) < 0.05]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(batch=5, steps=700), dict(batch=70, steps=9)]
