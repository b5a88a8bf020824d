"""Mean over the valid steps of each padded sequence: y[b, d] = x[b, :lengths[b], d].mean(0) (a masked mean pool)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        steps = torch.arange(x.shape[1]).view(1, -1, 1)
        valid = (steps < lengths.view(-1, 1, 1)).to(x.dtype)
        return (x * valid).sum(dim=1) / lengths.view(-1, 1).to(x.dtype)


batch = 6
steps = 50
features = 72
dtype = torch.float32


def get_inputs():
    lengths = torch.randint(1, steps + 1, (batch,), dtype=torch.int32)
    return [torch.randn(batch, steps, features, dtype=dtype), lengths]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(batch=3, steps=7, features=200), dict(batch=37, features=1)]
