"""kgen's torch_npu shim: makes the `npu` device of a MultiKernelBench model_src work on the CPU.

Importing it (model_src does `import torch_npu`) patches torch minimally:
- torch.device("npu"), torch.device("npu:0"), torch.device("npu", 0) give the CPU device;
- Tensor.npu(), Module.npu() return the object itself; Tensor.to / Module.to map an npu device to the CPU
  (dtype conversions still happen);
- torch.npu (and torch_npu.npu): synchronize, is_available, current_device, set_device, device_count,
  manual_seed(_all), get_device_name, Event(enable_timing=...), Stream / current_stream.
Nothing is patched until the module is imported.
"""
import time as _time

import torch as _torch

_CPU = _torch.device("cpu")
_RealDevice = _torch.device


def _is_npu(d):
    if isinstance(d, str):
        return d == "npu" or d.startswith("npu:")
    return False


def _map_device(d):
    return _CPU if _is_npu(d) else d


class _DeviceMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, _RealDevice)

    def __subclasscheck__(cls, sub):
        return issubclass(sub, _RealDevice)


class device(metaclass=_DeviceMeta):  # noqa: N801 - stands in for torch.device
    """torch.device that accepts "npu" (mapped to the CPU)."""

    def __new__(cls, *args, **kwargs):
        if args and _is_npu(args[0]):
            return _CPU
        if args and isinstance(args[0], str) and args[0] == "npu":
            return _CPU
        return _RealDevice(*args, **kwargs)


def _patch():
    if getattr(_torch, "_kgen_npu_shim", False):
        return
    _torch._kgen_npu_shim = True
    _torch.device = device

    def _fix_args(args, kwargs):
        args = tuple(_map_device(a) for a in args)
        if "device" in kwargs:
            kwargs = dict(kwargs)
            kwargs["device"] = _map_device(kwargs["device"])
        return args, kwargs

    t_to = _torch.Tensor.to

    def tensor_to(self, *args, **kwargs):
        args, kwargs = _fix_args(args, kwargs)
        return t_to(self, *args, **kwargs)

    _torch.Tensor.to = tensor_to
    _torch.Tensor.npu = lambda self, *a, **k: self
    _torch.Tensor.is_npu = property(lambda self: True)
    m_to = _torch.nn.Module.to

    def module_to(self, *args, **kwargs):
        args, kwargs = _fix_args(args, kwargs)
        return m_to(self, *args, **kwargs)

    _torch.nn.Module.to = module_to
    _torch.nn.Module.npu = lambda self, *a, **k: self
    # Factories called with device="npu" build CPU tensors.
    for name in ("empty", "zeros", "ones", "full", "rand", "randn", "randint", "arange", "tensor", "empty_like",
                 "zeros_like", "ones_like", "full_like", "rand_like", "randn_like", "linspace", "eye", "as_tensor"):
        f = getattr(_torch, name, None)
        if f is None:
            continue

        def wrapped(*args, __f=f, **kwargs):
            if "device" in kwargs:
                kwargs["device"] = _map_device(kwargs["device"])
            return __f(*args, **kwargs)

        setattr(_torch, name, wrapped)
    _torch.npu = npu


class _Event:
    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        self.t = None

    def record(self, stream=None):
        self.t = _time.perf_counter()

    def synchronize(self):
        pass

    def wait(self, stream=None):
        pass

    def query(self):
        return True

    def elapsed_time(self, end):
        return (end.t - self.t) * 1000.0


class _Stream:
    def __init__(self, *a, **k):
        pass

    def synchronize(self):
        pass

    def wait_stream(self, other):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


class _Npu:
    Event = _Event
    Stream = _Stream

    @staticmethod
    def synchronize(device=None):
        pass

    @staticmethod
    def is_available():
        return True

    @staticmethod
    def current_device():
        return 0

    @staticmethod
    def set_device(d):
        pass

    @staticmethod
    def device_count():
        return 1

    @staticmethod
    def manual_seed(seed):
        _torch.manual_seed(seed)

    @staticmethod
    def manual_seed_all(seed):
        _torch.manual_seed(seed)

    @staticmethod
    def get_device_name(d=None):
        return "Ascend910B2 (kgen emulator)"

    @staticmethod
    def current_stream(device=None):
        return _Stream()

    @staticmethod
    def stream(s):
        return _Stream()

    @staticmethod
    def empty_cache():
        pass

    def device(self, d):
        return _Stream()


npu = _Npu()
_patch()
__version__ = "kgen-shim"
