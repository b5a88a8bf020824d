import torch


def get_inputs(param, device=None):
    dtype = getattr(torch, param.get("dtype", "float32"))
    return (torch.tensor(float(param["value"]), dtype=dtype, device=device),)


def get_init_inputs(param, device=None):
    return [int(param["n"])]
