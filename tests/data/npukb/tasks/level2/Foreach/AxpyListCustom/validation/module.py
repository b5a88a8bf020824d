from typing import List

import torch
import torch_npu
from torch_npu.contrib import transfer_to_npu
import torch.nn as nn
import kernel_gen_ops


class Model(nn.Module):
    def forward(self, x1: List[torch.Tensor], x2: List[torch.Tensor], alpha: torch.Tensor) -> List[torch.Tensor]:
        return [a + b * alpha for a, b in zip(x1, x2)]


class ModelNew(nn.Module):
    def forward(self, x1: List[torch.Tensor], x2: List[torch.Tensor], alpha: torch.Tensor) -> List[torch.Tensor]:
        return kernel_gen_ops.axpy_list_custom(x1, x2, alpha)
