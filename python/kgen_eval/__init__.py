"""kgen's benchmark evaluator. tasks.py: discovery, loading and checking of the PyTorch reference tasks (tasks/,
KernelBench and MultiKernelBench/NPUKernelBench folders)."""
from .tasks import (CATEGORIES, Case, Task, category_from_name, check, discover, find_case, load_case, make_model,
                    run_reference)

__all__ = ["CATEGORIES", "Case", "Task", "category_from_name", "check", "discover", "find_case", "load_case",
           "make_model", "run_reference"]
