"""Sum over one dimension, keeping it: y = x.sum(dim, keepdim=True)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(x, dim=self.dim, keepdim=True)


batch_size = 16
dim1 = 256
dim2 = 129                # rows of 516 bytes
reduce_dim = 1
dtype = torch.float32


def get_inputs():
    if dtype.is_floating_point:
        return [torch.randn(batch_size, dim1, dim2, dtype=dtype)]
    return [torch.randint(-100, 100, (batch_size, dim1, dim2), dtype=dtype)]


def get_init_inputs():
    return [reduce_dim]


CASES = [dict(reduce_dim=2), dict(reduce_dim=0, batch_size=33), dict(dtype=torch.float16), dict(dtype=torch.int32), dict(batch_size=2, dim1=20000, dim2=40, reduce_dim=1)]   # an axis too long for UB: in chunks
