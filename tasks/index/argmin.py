"""Index of the minimum along one dimension (int64 output; the first index wins on ties)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.argmin(x, dim=self.dim)


batch_size = 64
length = 1000             # 4000 bytes per row: not a multiple of 32 bytes
dim = 1
dtype = torch.float32


def get_inputs():
    if dtype.is_floating_point:
        return [torch.randn(batch_size, length, dtype=dtype)]
    return [torch.randint(-1000000, 1000000, (batch_size, length), dtype=dtype)]


def get_init_inputs():
    return [dim]


CASES = [dict(batch_size=300, length=77, dim=0), dict(dtype=torch.float16), dict(dtype=torch.int32)]
