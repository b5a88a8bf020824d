import torch


def get_inputs(param, device=None):
    shapes = eval(param.get("input_shape", "[[1]]"))
    dtype = getattr(torch, param.get("dtype", "float32"))
    x = [torch.randn(s, device=device, dtype=dtype) for s in shapes]
    scales = torch.tensor(eval(param["scales"]), dtype=torch.float32)   # on the host: the binding reads it
    return x, scales


def get_init_inputs(param, device=None):
    return []
