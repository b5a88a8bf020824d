"""Static anti-cheat helper for a MultiKernelBench submission (used by src/eval/static_checks.cpp).

Usage: python3 static_mkb.py SUBMISSION.py
Prints {"sources": [{"name", "line", "text"}], "findings": ["cheating SUB.py:LINE: what — why", ...]}:
- sources: the C++ strings (kernel_src, host_operator_src, host_tiling_src, python_bind_src) with the file line of
  their first line, for the C++ checks done in static_checks.cpp;
- findings: model_src's ModelNew.forward (and the helpers it defines) may call only custom_ops_lib functions and
  tensor plumbing. As MultiKernelBench's AST check: calls of torch.* / F.* / torch.nn.functional.* computations,
  tensor methods that compute (x.matmul, x.sum, x.exp, ...), the @ operator, and calls of torch layers held by the
  module (self.conv = nn.Conv2d(...); self.conv(x)) are flagged.
"""
import ast
import json
import sys

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


def main(path):
    src = open(path, encoding="utf-8").read()
    tree = ast.parse(src, filename=path)
    out = {"sources": [], "findings": []}
    model_src, model_line = None, 1
    for st in tree.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            name = st.targets[0].id
            if isinstance(st.value, ast.Constant) and isinstance(st.value.value, str):
                if name in CPP:
                    out["sources"].append({"name": name, "line": st.value.lineno, "text": st.value.value})
                elif name == "model_src":
                    model_src, model_line = st.value.value, st.value.lineno
    if model_src is not None:
        out["findings"] = check_model(path, model_src, model_line)
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
        found.append(f"cheating {path}:{first + node.lineno - 1}: {what} in model_src — {why}")

    aliases = {"torch"}
    fn_aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "torch":
                    aliases.add(a.asname or "torch")
                if a.name in ("torch.nn.functional",):
                    fn_aliases.add(a.asname or a.name)
        elif isinstance(node, ast.ImportFrom) and node.module in ("torch.nn", "torch"):
            for a in node.names:
                if a.name == "functional":
                    fn_aliases.add(a.asname or "functional")
    for cls in [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ModelNew"]:
        layers = set()
        for fn in [f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"]:
            for node in ast.walk(fn):
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                    callee = dotted(node.value.func) or ""
                    last = callee.split(".")[-1]
                    if (callee.startswith(("nn.", "torch.nn.")) and last not in LAYER_OK):
                        for t in node.targets:
                            d = dotted(t)
                            if d and d.startswith("self."):
                                layers.add(d)
        for fn in [f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name != "__init__"]:
            for node in ast.walk(fn):
                if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
                    flag(node, "the @ operator")
                if not isinstance(node, ast.Call):
                    continue
                d = dotted(node.func)
                if d is None:
                    continue
                parts = d.split(".")
                if parts[0] == "custom_ops_lib":
                    continue
                if d in layers:
                    flag(node, f"{d}(...) (a torch.nn layer)")
                elif parts[0] in aliases or parts[0] in fn_aliases or parts[0] == "F":
                    if len(parts) >= 2 and parts[-1] not in TORCH_OK and parts[1] not in ("npu", "float16",
                                                                                           "float32", "bfloat16"):
                        flag(node, f"{d}(...)")
                elif len(parts) >= 2 and parts[0] != "self" and parts[-1] not in METHOD_OK and parts[0] not in (
                        "super", "math", "os", "sys", "np", "numpy"):
                    flag(node, f".{parts[-1]}(...) on {'.'.join(parts[:-1])}")
    return found


if __name__ == "__main__":
    main(sys.argv[1])
