"""Cross-entropy of logits against int64 class indices, averaged over the batch (F.cross_entropy)."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def forward(self, logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.cross_entropy(logits, target)


batch_size = 256
num_classes = 1000
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, num_classes, dtype=dtype) * 3,
            torch.randint(0, num_classes, (batch_size,), dtype=torch.int64)]


def get_init_inputs():
    return []


CASES = [dict(dtype=torch.float16), dict(batch_size=33, num_classes=10)]

# The perf shape, timed timing-only (never run for values): KernelBench's size, level1/95_CrossEntropyLoss.py at 423217d.
PERF = dict(batch_size=32768, num_classes=4096)
