"""Linear layer, sigmoid, then sum over the feature dimension: y[b, 0] = sum_j sigmoid(x @ W^T + b)[b, j]."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs float16 layers

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(self.linear(x)).sum(dim=1, keepdim=True)


batch_size = 64
in_features = 256
out_features = 1000       # reduced row of 4000 bytes
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, in_features, dtype=dtype)]


def get_init_inputs():
    return [in_features, out_features]


CASES = [dict(dtype=torch.float16)]
