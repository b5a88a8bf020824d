"""Returns of each episode so far: a running sum along dim 1 that restarts where `starts` is True (an episode's first step)
(y[b, t, d] = x[b, s..t, d].sum(), s the last step <= t whose starts[b, s, d] is True, or 0)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, starts: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        run = torch.zeros_like(x[:, 0])
        for t in range(x.shape[1]):
            run = torch.where(starts[:, t], x[:, t], run + x[:, t])
            out[:, t] = run
        return out


batch = 4
steps = 64
features = 40
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch, steps, features, dtype=dtype), torch.rand(batch, steps, features) < 0.1]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(batch=2, steps=7, features=300)]
