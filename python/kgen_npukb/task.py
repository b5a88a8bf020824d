"""Reading an NPUKernelBench task folder as its harness does (framework/task_object.py, batch_precision_eval.py):
the op name is the folder name before any '_', the bound function its snake case; test_cases.csv rows (';'
separated, whole-number columns as ints) are the cases; module.py holds Model and ModelNew, prepare_inputs.py (or
module.py) get_inputs(row), get_init_inputs(row) and optionally custom_check_precision(row, ref, new)."""
import csv
import importlib.util
import os
import re
import sys


class TaskError(Exception):
    """A task folder kgen cannot use: `where` is file:line, `message` what is wrong."""

    def __init__(self, where, message):
        super().__init__(f"{where}: {message}")
        self.where, self.message = where, message


def camel_to_snake(name):
    s = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z0-9])([A-Z])", r"\1_\2", s).lower()


def is_task(folder):
    v = os.path.join(folder, "validation")
    return os.path.isfile(os.path.join(v, "module.py")) and os.path.isfile(os.path.join(v, "test_cases.csv"))


class Task:
    def __init__(self, folder):
        self.dir = os.path.abspath(folder)
        if not is_task(self.dir):
            raise TaskError(self.dir, "not an NPUKernelBench task folder: validation/module.py and "
                                      "validation/test_cases.csv are missing")
        self.op_name = os.path.basename(self.dir).split("_")[0]
        self.kernel_name = camel_to_snake(self.op_name)
        v = os.path.join(self.dir, "validation")
        self.module_path = os.path.join(v, "module.py")
        self.prepare_path = os.path.join(v, "prepare_inputs.py")
        self.cases_path = os.path.join(v, "test_cases.csv")
        self.pybind_path = os.path.join(v, "pybind.cpp")
        m = re.search(r"level(\d+)", os.path.dirname(self.dir), re.I)
        self.level = int(m.group(1)) if m else 0
        self.category = os.path.basename(os.path.dirname(self.dir))
        self.rows = read_cases(self.cases_path)

    def binding_text(self):
        """pybind.cpp as the harness compiles it: two names replaced on their lines (`aclnnCustomOp` -> aclnn<Op>,
        `custom_pybind_api` -> <op_snake>), behind a #line directive so that diagnostics name the task's file. The
        candidate's run (run_npukb.py) and the trusted side (reference.py, which has it built ahead) write the same
        bytes, so both find one cached library (src/op/bind_build.h)."""
        text = open(self.pybind_path, encoding="utf-8").read()
        text = text.replace("aclnnCustomOp", f"aclnn{self.op_name}").replace("custom_pybind_api", self.kernel_name)
        return f'#line 1 "{self.pybind_path}"\n' + text

    def load_modules(self):
        """(module, prepare): module.py, and prepare_inputs.py unless module.py has get_init_inputs itself."""
        module = _load("kgen_npukb_module", self.module_path)
        prepare = module
        if not hasattr(module, "get_init_inputs"):
            if not os.path.isfile(self.prepare_path):
                raise TaskError(self.module_path + ":1", "no get_init_inputs here and no validation/prepare_inputs.py")
            prepare = _load("kgen_npukb_prepare", self.prepare_path)
        return module, prepare


def _number(s):
    try:
        return int(s)
    except ValueError:
        pass
    try:
        return float(s)
    except ValueError:
        return s


# The spellings pandas' C parser reads as booleans by default (its true_values / false_values).
_BOOLS = {"True": True, "TRUE": True, "true": True, "False": False, "FALSE": False, "false": False}


def read_cases(path):
    """The rows of test_cases.csv as dicts. Like pandas read_csv + the harness's preprocess_dataframe: numbers are
    numbers, a column whose values are all whole numbers (and none empty) holds ints, True/False columns (also
    TRUE/FALSE, true/false) bools."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter=";"))
    if not rows:
        raise TaskError(path + ":1", "no test cases (a header line and one row per case, ';' separated)")
    cols = rows[0].keys()
    for c in cols:
        vals = [r.get(c) for r in rows]
        if all(v in _BOOLS for v in vals):   # pandas reads such a column as bool
            for r in rows:
                r[c] = _BOOLS[r[c]]
            continue
        nums = [_number(v) if v not in (None, "") else None for v in vals]
        if all(isinstance(n, (int, float)) for n in nums):
            whole = all(float(n) == int(float(n)) for n in nums)
            for r, n in zip(rows, nums):
                r[c] = int(n) if whole else n
        else:
            for r, n in zip(rows, nums):
                r[c] = n if isinstance(n, (int, float)) else (r.get(c) if r.get(c) != "" else None)
    return rows


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None:
        raise TaskError(path + ":1", "cannot be loaded as a Python module")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod
