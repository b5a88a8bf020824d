"""Index of the maximum along one dimension (int64 output; the first index wins on ties)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.argmax(x, dim=self.dim)


batch_size = 16
dim1 = 256
dim2 = 129                # 516 bytes per row: not a multiple of 32 bytes
dim = 2
dtype = torch.float32


def get_inputs():
    if dtype.is_floating_point:
        return [torch.randn(batch_size, dim1, dim2, dtype=dtype)]
    return [torch.randint(-1000000, 1000000, (batch_size, dim1, dim2), dtype=dtype)]


def get_init_inputs():
    return [dim]


CASES = [
    dict(dim=1),
    dict(dtype=torch.float16),
    dict(dtype=torch.bfloat16, dim1=64, dim2=1000),
    dict(dtype=torch.int32),
]
