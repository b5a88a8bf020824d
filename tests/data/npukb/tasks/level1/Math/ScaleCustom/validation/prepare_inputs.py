import torch


def get_inputs(param, device=None):
    shape = eval(param.get("input_shape", "[1]"))
    dtype = getattr(torch, param.get("dtype", "float32"))
    return (torch.randn(shape, device=device, dtype=dtype),)


def get_init_inputs(param, device=None):
    return [float(param["alpha"])]


def custom_check_precision(param, outputs, outputs_new):
    rtol = 1 / 512 if param.get("dtype") == "float16" else 1 / 2048
    ref, new = outputs.float(), outputs_new.float()
    abs_diff = torch.abs(ref - new)
    rel_diff = abs_diff / (torch.abs(ref) + 1e-7)
    ok = bool(((abs_diff <= rtol) | (rel_diff <= rtol)).all())
    return (1 if ok else 0), abs_diff.reshape(-1), rel_diff.reshape(-1)
