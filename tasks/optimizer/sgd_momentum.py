"""One SGD step with momentum and weight decay: buf = momentum*buf + (grad + wd*param); param -= lr*buf."""
import torch
import torch.nn as nn

LEVEL = 1


class Model(nn.Module):
    def __init__(self, lr: float, momentum: float, weight_decay: float):
        super().__init__()
        self.lr = lr
        self.momentum = momentum
        self.weight_decay = weight_decay

    def forward(self, param: torch.Tensor, grad: torch.Tensor, momentum_buf: torch.Tensor):
        d = grad + self.weight_decay * param
        new_buf = self.momentum * momentum_buf + d
        new_param = param - self.lr * new_buf
        return new_param, new_buf


rows = 512
cols = 300                # 1200 bytes per row: not a multiple of 32 bytes
lr = 0.01
momentum = 0.9
weight_decay = 1e-4
dtype = torch.float32


def get_inputs():
    param = torch.randn(rows, cols, dtype=dtype)
    grad = torch.randn(rows, cols, dtype=dtype)
    momentum_buf = torch.randn(rows, cols, dtype=dtype) * 0.1
    return [param, grad, momentum_buf]


def get_init_inputs():
    return [lr, momentum, weight_decay]


CASES = [dict(rows=1, cols=100003), dict(dtype=torch.float16), dict(dtype=torch.bfloat16)]

# The perf shape, timed timing-only (never run for values): no KernelBench level-1 twin; sized so that its
# tensors (128-512 MiB each) make host dispatch and launch well under 10 % of eager's time.
PERF = dict(rows=8192, cols=4096)
