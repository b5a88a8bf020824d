"""Product over one dimension: y = x.prod(dim); x is near 1 so the product stays in range."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.prod(x, dim=self.dim)


batch_size = 128
dim1 = 50
dim2 = 301
reduce_dim = 1
dtype = torch.float32


def get_inputs():
    return [1.0 + 0.1 * torch.randn(batch_size, dim1, dim2, dtype=dtype)]


def get_init_inputs():
    return [reduce_dim]


CASES = [dict(dtype=torch.float16), dict(reduce_dim=2, dim2=40), dict(batch_size=2, dim1=20000, dim2=40, reduce_dim=1)]   # an axis too long for UB: in chunks
