"""Static anti-cheat helper for a MultiKernelBench submission (used by src/eval/static_checks.cpp).

Usage: python3 static_mkb.py SUBMISSION.py
Prints {"sources": [{"name", "line", "text"}], "findings": ["cheating SUB.py:LINE: what — why", ...]}.
The submission is parsed with ast, never run (the evaluator runs this in its sandbox all the same).

- sources: the C++ strings (kernel_src, host_operator_src, host_tiling_src, python_bind_src) with the file line of
  their first line, for the C++ checks of static_checks.cpp. A string may be computed from constants (concatenation,
  f-strings, "".join, .format, %, .replace, names assigned earlier); one kgen cannot compute that way is a finding.
- the submission's top level may only import, assign and document: code that runs when the file is loaded (a call,
  a decorator, a loop) runs beside ModelNew in the evaluator's sandbox.
- model_src: ModelNew's methods other than __init__, and every function and class of model_src they reach by name
  (module-level helpers, self.method, other classes), may call only custom_ops_lib functions and tensor plumbing. As
  MultiKernelBench's AST check: torch.* / F.* / numpy computations, tensor methods that compute (x.matmul, x.sum,
  x.exp, ...), the @ operator, and torch layers held by the module (self.conv = nn.Conv2d(...); self.conv(x)) are
  findings, also when reached through getattr(torch, "add") or an alias. Anywhere in model_src: reaching out of the
  model (eval/exec/compile/__import__/importlib, sys._getframe, inspect, gc, globals/locals/vars, open, os, subprocess,
  ctypes, a getattr whose name is not a constant, assigning to another module's attributes) is a finding.
"""
import ast
import json
import sys

STRINGS = ("project_json_src", "host_tiling_src", "host_operator_src", "kernel_src", "python_bind_src", "model_src")
CPP = ("kernel_src", "host_operator_src", "host_tiling_src", "python_bind_src")
# torch.* calls that allocate or describe rather than compute
TORCH_OK = {"empty", "empty_like", "zeros", "zeros_like", "ones", "ones_like", "full", "full_like", "tensor",
            "device", "Size", "is_tensor", "no_grad", "manual_seed", "synchronize", "as_tensor", "get_default_dtype",
            "finfo", "iinfo", "Generator"}
# tensor methods that only move/reshape/describe
METHOD_OK = {"view", "reshape", "contiguous", "to", "npu", "cpu", "cuda", "size", "dim", "numel", "float", "half",
             "bfloat16", "int", "long", "bool", "double", "flatten", "unsqueeze", "squeeze", "permute", "transpose",
             "expand", "expand_as", "view_as", "reshape_as", "t", "clone", "detach", "new_empty", "new_zeros",
             "new_ones", "new_full", "item", "tolist", "type", "type_as", "element_size", "stride", "is_contiguous",
             "data_ptr", "chunk", "split", "unbind", "narrow", "append", "extend", "items", "keys", "values", "get",
             "format", "join", "copy_", "fill_", "zero_", "__init__"}
LAYER_OK = {"Parameter", "ParameterList", "ParameterDict", "Identity", "ModuleList", "ModuleDict", "Sequential"}
# Calls that reach out of the model: the process, the interpreter's frames and objects, files.
ESCAPE_CALLS = {"eval", "exec", "compile", "__import__", "globals", "locals", "vars", "open", "breakpoint", "input",
                "setattr", "delattr"}
ESCAPE_MODULES = {"sys", "inspect", "gc", "os", "subprocess", "ctypes", "importlib", "builtins", "pickle", "marshal",
                  "shutil", "pathlib", "io", "socket", "threading", "multiprocessing", "signal", "types", "weakref"}
STR_METHODS = {"join", "format", "replace", "strip", "lstrip", "rstrip", "lower", "upper"}


class Unresolved(Exception):
    pass


def resolve(node, env):
    """The str value of an expression built from constants, or Unresolved."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and node.id in env:
        return env[node.id]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return resolve(node.left, env) + resolve(node.right, env)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        left = resolve(node.left, env)
        right = node.right
        vals = tuple(constant(e, env) for e in right.elts) if isinstance(right, ast.Tuple) else constant(right, env)
        return left % vals
    if isinstance(node, ast.JoinedStr):
        out = ""
        for v in node.values:
            if isinstance(v, ast.Constant):
                out += str(v.value)
            elif isinstance(v, ast.FormattedValue) and v.format_spec is None and v.conversion == -1:
                out += str(constant(v.value, env))
            else:
                raise Unresolved()
        return out
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in STR_METHODS:
        base = resolve(node.func.value, env)
        if node.keywords and node.func.attr != "format":
            raise Unresolved()
        args = [constant(a, env) for a in node.args]
        kwargs = {k.arg: constant(k.value, env) for k in node.keywords if k.arg}
        if node.func.attr == "join":
            if len(args) != 1 or not isinstance(args[0], (list, tuple)):
                raise Unresolved()
            return base.join(str(x) for x in args[0])
        return getattr(base, node.func.attr)(*args, **kwargs)
    raise Unresolved()


def constant(node, env):
    """A constant value (str, number, or list/tuple of them), or Unresolved."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.List, ast.Tuple)):
        return [constant(e, env) for e in node.elts]
    return resolve(node, env)


def main(path):
    with open(path, encoding="utf-8") as f:
        src = f.read()
    tree = ast.parse(src, filename=path)
    out = {"sources": [], "findings": []}
    found = out["findings"]
    env, values, lines = {}, {}, {}
    for st in tree.body:
        if isinstance(st, (ast.Import, ast.ImportFrom, ast.Pass)):
            continue
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):
            continue   # a docstring
        targets, value = [], None
        if isinstance(st, ast.Assign):
            targets, value = st.targets, st.value
        elif isinstance(st, ast.AnnAssign) and st.value is not None:
            targets, value = [st.target], st.value
        if value is None:
            found.append(f"cheating {path}:{st.lineno}: {type(st).__name__.lower()} statement at the submission's top "
                         f"level — it runs when the submission is loaded, beside ModelNew; a MultiKernelBench "
                         f"submission only assigns its six strings")
            continue
        names = [t.id for t in targets if isinstance(t, ast.Name)]
        try:
            v = resolve(value, env)
            for n in names:
                env[n] = v
                values[n], lines[n] = v, value.lineno
        except (Unresolved, TypeError, ValueError, KeyError, IndexError):
            calls = [n for n in ast.walk(value) if isinstance(n, ast.Call)]
            for n in names:
                if n in STRINGS:
                    found.append(f"cheating {path}:{value.lineno}: {n} is computed in a way kgen cannot follow "
                                 f"statically (only constants, concatenation, f-strings, join, format, % and replace "
                                 f"are) — write it as a string literal")
            if calls and not any(n in STRINGS for n in names):
                found.append(f"cheating {path}:{value.lineno}: a call at the submission's top level — it runs when "
                             f"the submission is loaded, beside ModelNew; a MultiKernelBench submission only assigns "
                             f"its six strings")
            if isinstance(value, ast.Constant):
                for n in names:
                    env[n] = value.value
    for name in CPP:
        if name in values:
            out["sources"].append({"name": name, "line": lines[name], "text": values[name]})
    if "model_src" in values:
        found += check_model(path, values["model_src"], lines["model_src"])
    print(json.dumps(out))


def dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def check_model(path, src, first):
    try:
        tree = ast.parse(src)
    except SyntaxError:
        return []   # run_mkb reports it
    found = []

    def flag(node, what, why="a PyTorch computation does the work instead of the custom kernel "
                                "(ModelNew.forward may only call custom_ops_lib)"):
        msg = f"cheating {path}:{first + getattr(node, 'lineno', 1) - 1}: {what} in model_src — {why}"
        if msg not in found:
            found.append(msg)

    aliases, fn_aliases, np_aliases, mod_aliases = {"torch"}, set(), {"np", "numpy"}, {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                top = a.name.split(".")[0]
                if a.name == "torch":
                    aliases.add(a.asname or "torch")
                elif a.name == "torch.nn.functional":
                    fn_aliases.add(a.asname or a.name)
                elif top == "numpy":
                    np_aliases.add(a.asname or "numpy")
                mod_aliases[a.asname or top] = top
        elif isinstance(node, ast.ImportFrom):
            mod = (node.module or "").split(".")[0]
            for a in node.names:
                if node.module in ("torch.nn", "torch") and a.name == "functional":
                    fn_aliases.add(a.asname or "functional")
                elif node.module == "torch":
                    aliases.add(a.asname or a.name) if a.name in ("nn",) else None
                    if a.name not in ("nn", "Tensor", "dtype", "float16", "float32", "bfloat16", "int32", "int64"):
                        fn_aliases.add(a.asname or a.name)   # from torch import add: add(...) computes
                mod_aliases[a.asname or a.name] = mod
    escape = {k for k, v in mod_aliases.items() if v in ESCAPE_MODULES}

    # Anywhere: reaching out of the model.
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            d = dotted(node.func) or ""
            head = d.split(".")[0]
            if d in ESCAPE_CALLS:
                flag(node, f"{d}(...)", "it reaches out of the model (the interpreter, its frames or files); "
                                        "ModelNew computes with its custom kernel only")
            elif head in escape or d.startswith("sys."):
                flag(node, f"{d}(...)", "it reaches out of the model (the process, the interpreter's frames or "
                                        "objects, files); ModelNew computes with its custom kernel only")
            elif d == "getattr" and len(node.args) >= 2 and not (isinstance(node.args[1], ast.Constant)
                                                                  and isinstance(node.args[1].value, str)):
                flag(node, "getattr(...) with a computed name", "kgen cannot see what it calls; name the attribute")
        elif isinstance(node, ast.Attribute) and node.attr.startswith("__") and node.attr.endswith("__") and \
                node.attr not in ("__init__", "__class__", "__name__"):
            flag(node, f".{node.attr}", "it reaches into the interpreter's internals")
        elif isinstance(node, ast.Name) and node.id in ("__builtins__", "__loader__", "__spec__"):
            flag(node, node.id, "it reaches into the interpreter's internals")
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                d = dotted(t.value) if isinstance(t, (ast.Attribute, ast.Subscript)) else None
                if d and d.split(".")[0] in (mod_aliases.keys() | aliases | {"custom_ops_lib"}) and \
                        d.split(".")[0] != "self":
                    flag(node, f"assigning to {d}", "it changes another module (monkeypatching) instead of "
                                                    "computing with the custom kernel")

    funcs = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    lambdas = {}
    for n in tree.body:
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Lambda):
            for t in n.targets:
                if isinstance(t, ast.Name):
                    lambdas[t.id] = n.value
    model = classes.get("ModelNew")
    if model is None:
        return found
    methods = {m.name: m for m in model.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
    layers = set()
    for fn in [methods.get("__init__")] if "__init__" in methods else []:
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                callee = dotted(node.value.func) or ""
                last = callee.split(".")[-1]
                if callee.startswith(("nn.", "torch.nn.")) and last not in LAYER_OK:
                    for t in node.targets:
                        d = dotted(t)
                        if d and d.startswith("self."):
                            layers.add(d)
    # What the forward can reach by name: its own methods, module-level helpers and lambdas, other classes.
    todo = [m for name, m in methods.items() if name != "__init__"]
    reached, seen = [], set()
    while todo:
        fn = todo.pop()
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        reached.append(fn)
        for node in ast.walk(fn):
            if not isinstance(node, ast.Call):
                continue
            d = dotted(node.func) or ""
            if d in funcs:
                todo.append(funcs[d])
            elif d in lambdas:
                todo.append(lambdas[d])
            elif d in classes and d != "ModelNew":
                todo += [m for m in classes[d].body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
            elif d.startswith("self.") and d.count(".") == 1 and d[5:] in methods and d[5:] != "__init__":
                todo.append(methods[d[5:]])
    torch_heads = aliases | fn_aliases | {"F"}
    for fn in reached:
        for node in ast.walk(fn):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
                flag(node, "the @ operator")
            if not isinstance(node, ast.Call):
                continue
            d = dotted(node.func)
            if d == "getattr" and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
                base = dotted(node.args[0]) or ""
                name = str(node.args[1].value)
                if base.split(".")[0] in torch_heads | np_aliases and name not in TORCH_OK:
                    flag(node, f"getattr({base}, {name!r})(...)")
                continue
            if d is None:
                continue
            parts = d.split(".")
            if parts[0] == "custom_ops_lib":
                continue
            if d in layers:
                flag(node, f"{d}(...) (a torch.nn layer)")
            elif parts[0] in np_aliases:
                flag(node, f"{d}(...)", "a NumPy computation does the work instead of the custom kernel")
            elif len(parts) == 1 and parts[0] in fn_aliases:
                flag(node, f"{d}(...)")
            elif parts[0] in torch_heads:
                if len(parts) >= 2 and parts[-1] not in TORCH_OK and parts[1] not in ("npu", "float16", "float32",
                                                                                     "bfloat16"):
                    flag(node, f"{d}(...)")
            elif len(parts) >= 2 and parts[0] != "self" and parts[-1] not in METHOD_OK and parts[0] not in (
                    "super", "math"):
                flag(node, f".{parts[-1]}(...) on {'.'.join(parts[:-1])}")
    return found


if __name__ == "__main__":
    main(sys.argv[1])
