"""Weight-only int8 quantised linear (W8A16): the int8 weight [n, k] with a scale per output row is dequantised to
the activations' dtype and multiplied: y = x @ (w.to(x.dtype) * scale[:, None]).T."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, w: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
        return x @ (w.to(x.dtype) * scale[:, None]).t()


tokens = 64
in_features = 256
out_features = 192
dtype = torch.float32


def get_inputs():
    return [torch.randn(tokens, in_features, dtype=dtype),
            torch.randint(-127, 128, (out_features, in_features), dtype=torch.int8),
            (torch.rand(out_features) * 0.02 + 0.002).to(dtype)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(tokens=7, in_features=96, out_features=40)]
