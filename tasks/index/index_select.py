"""torch.index_select: pick whole rows of x (dim 0) by an int64 index vector, duplicates allowed."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
        return torch.index_select(x, self.dim, index)


rows = 4000
cols = 129                # 516 bytes per row: not a multiple of 32 bytes
num_selected = 1000
dim = 0
dtype = torch.float32


def get_inputs():
    if dtype.is_floating_point:
        x = torch.randn(rows, cols, dtype=dtype)
    else:
        x = torch.randint(-1000, 1000, (rows, cols), dtype=dtype)
    index = torch.randint(0, rows, (num_selected,))
    return [x, index]


def get_init_inputs():
    return [dim]


CASES = [dict(dtype=torch.float16), dict(dtype=torch.int32, cols=77)]
