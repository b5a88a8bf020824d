"""Fixture with mistakes the checker must report (line numbers are asserted by tests/tasks_test.sh)."""
import torch
import torch.nn as nn

LEVEL = 4


class Model(nn.Module):
    def forward(self, x):
        return torch.log(x - 10)          # NaN for every input below 10


n = 16
dtype = torch.float32


def get_inputs():
    return [torch.rand(n, dtype=dtype)]


def get_init_inputs():
    return []


CASES = [dict(m=3), dict(dtype=torch.float16)]

PERF = dict(size=1048576)
