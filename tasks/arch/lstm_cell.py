"""One LSTM cell step (input, forget, cell and output gates); returns (h', c')."""
import torch
import torch.nn as nn

LEVEL = 3


class Model(nn.Module):
    def __init__(self, input_size: int, hidden_size: int):
        super().__init__()
        self.cell = nn.LSTMCell(input_size, hidden_size)
        self.to(dtype)        # parameters in the case's dtype: a float16 case runs float16 layers

    def forward(self, x: torch.Tensor, h: torch.Tensor, c: torch.Tensor):
        return self.cell(x, (h, c))


batch_size = 32
input_size = 256
hidden_size = 250         # rows of 1000 bytes
dtype = torch.float32


def get_inputs():
    return [torch.randn(batch_size, input_size, dtype=dtype), torch.randn(batch_size, hidden_size, dtype=dtype),
            torch.randn(batch_size, hidden_size, dtype=dtype)]


def get_init_inputs():
    return [input_size, hidden_size]


CASES = [dict(batch_size=5, hidden_size=64), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): no KernelBench or MultiKernelBench twin; sized so that
# its tensors (64-512 MiB each) make host dispatch and launch well under 10 % of eager's time.
PERF = dict(batch_size=4096, input_size=4096, hidden_size=4096)
