import torch


def get_inputs(param, device=None):
    shapes = eval(param.get("input_shape", "[[1]]"))
    dtype = getattr(torch, param.get("dtype", "float32"))
    x1 = [torch.randn(s, device=device, dtype=dtype) for s in shapes]
    x2 = [torch.randn(s, device=device, dtype=dtype) for s in shapes]
    alpha = torch.tensor([float(param["alpha"])], device=device, dtype=dtype)
    return x1, x2, alpha


def get_init_inputs(param, device=None):
    return []
