"""GroupNorm over (channel group, H, W), then Swish: y = g * sigmoid(g), g = group_norm(x)."""
import torch
import torch.nn as nn

LEVEL = 2


class Model(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.norm = nn.GroupNorm(num_groups, channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        g = self.norm(x)
        return g * torch.sigmoid(g)


batch_size = 4
channels = 64
num_groups = 8
height = 30
width = 30                # 120-byte rows
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, channels, height, width, dtype=dtype)]


def get_init_inputs():
    return [num_groups, channels]


CASES = [dict(channels=24, num_groups=3, height=7, width=13), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): no KernelBench or MultiKernelBench twin; sized so that
# its tensors (64-512 MiB each) make host dispatch and launch well under 10 % of eager's time.
PERF = dict(batch_size=128, channels=512, num_groups=64, height=32, width=32)
