"""Extraction of a MultiKernelBench AscendC submission (the six strings) into an msopgen-layout op project.

    extract.py SUBMISSION.py WORKDIR        prints a JSON summary on success; error[...] lines and exit 3 otherwise

As MultiKernelBench does, the submission is exec'd in a fresh namespace, but first its syntax is checked with ast and
the six assignments are looked for, so that a broken file gets a precise diagnostic. Every C++ file written starts
with a `#line N "SUBMISSION.py"` directive, N being the line where the string's content starts, so that compiler
errors point at the submission's own lines.
"""
import ast
import json
import os
import re
import sys

STRINGS = ("project_json_src", "host_tiling_src", "host_operator_src", "kernel_src", "python_bind_src", "model_src")


class SubmissionError(Exception):
    def __init__(self, category, line, message):
        super().__init__(message)
        self.category, self.line, self.message = category, line, message


def snake_case(op):
    """msopgen's name of the kernel entry point: LeakyReluCustom -> leaky_relu_custom, GELUCustom -> gelu_custom."""
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", op)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


def _content_line(node, source_lines, value):
    """The line where the string constant's content starts, or None when the source lines do not map 1:1 onto the
    value's lines (escaped newlines, implicit concatenation, computed strings)."""
    if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
        return None
    if node.end_lineno is None or node.end_lineno - node.lineno != value.count("\n"):
        return None
    return node.lineno


def parse(path):
    """Returns (strings, lines): the six strings' values and the lines their contents start at (or None)."""
    try:
        with open(path, encoding="utf-8") as f:
            source = f.read()
    except OSError as e:
        raise SubmissionError("submission", 0, f"cannot read the submission: {e.strerror}")
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as e:
        raise SubmissionError("submission", e.lineno or 0,
                              f"the submission is not valid Python: {e.msg} — fix the syntax; it must define the six "
                              f"strings {', '.join(STRINGS)}")
    nodes = {}
    for stmt in tree.body:
        targets = []
        if isinstance(stmt, ast.Assign):
            targets = [t for t in stmt.targets if isinstance(t, ast.Name)]
            value = stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            targets, value = [stmt.target], stmt.value
        for t in targets:
            if t.id in STRINGS:
                nodes[t.id] = (stmt, value)
    missing = [s for s in STRINGS if s not in nodes]
    if missing:
        last = max((n[0].end_lineno or n[0].lineno for n in nodes.values()), default=0)
        raise SubmissionError("submission", last + 1 if nodes else 1,
                              f"the submission does not assign {', '.join(missing)} — a MultiKernelBench AscendC "
                              f"submission defines six strings: {', '.join(STRINGS)}")
    ns = {"__name__": "__kgen_submission__", "__file__": os.path.abspath(path)}
    try:
        code = compile(source, path, "exec")
        exec(code, ns)
    except Exception as e:  # noqa: BLE001 - the submission's own failure, reported with its line
        tb = e.__traceback__
        line = 0
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == path:
                line = tb.tb_lineno
            tb = tb.tb_next
        raise SubmissionError("submission", line,
                              f"executing the submission failed: {type(e).__name__}: {e} — the file must define its "
                              f"six strings without side effects (no reading of other files)")
    strings, lines = {}, {}
    for name in STRINGS:
        v = ns.get(name)
        stmt = nodes[name][0]
        if not isinstance(v, str):
            raise SubmissionError("submission", stmt.lineno, f"{name} is a {type(v).__name__}, not a str")
        strings[name] = v
        lines[name] = _content_line(nodes[name][1], None, v)
        if lines[name] is None:
            lines[name] = None
    return strings, lines, {n: nodes[n][0].lineno for n in STRINGS}


def _line_of_offset(text, offset, first_line):
    return first_line + text.count("\n", 0, offset) if first_line else 0


def op_of(strings, lines, stmt_lines):
    src = strings["project_json_src"]
    try:
        desc = json.loads(src)
    except json.JSONDecodeError as e:
        line = lines["project_json_src"] + e.lineno - 1 if lines["project_json_src"] else stmt_lines["project_json_src"]
        raise SubmissionError("submission", line, f"project_json_src is not valid JSON: {e.msg} — it is msopgen's "
                              f"operator description, a list like [{{\"op\": \"AddCustom\", \"input_desc\": [...], ...}}]")
    if isinstance(desc, dict):
        desc = [desc]
    if not isinstance(desc, list) or not desc or not isinstance(desc[0], dict) or not isinstance(desc[0].get("op"), str):
        raise SubmissionError("submission", stmt_lines["project_json_src"],
                              "project_json_src has no \"op\" name — it must be a list of operator descriptions, "
                              "the first with \"op\": \"<Name>Custom\"")
    return desc[0]["op"], desc[0]


def check_kernel_name(strings, lines, stmt_lines, op):
    snake = snake_case(op)
    src = strings["kernel_src"]
    want = re.compile(r'extern\s+"C"\s+__global__\s+__aicore__\s+void\s+' + re.escape(snake) + r"\s*\(")
    if want.search(src):
        return snake
    found = list(re.finditer(r'__global__\s+(?:__aicore__\s+)?void\s+(\w+)\s*\(', src))
    if found:
        m = found[0]
        line = _line_of_offset(src, m.start(1), lines["kernel_src"]) or stmt_lines["kernel_src"]
        raise SubmissionError("kernel-name", line,
                              f"the kernel entry point is '{m.group(1)}' but the operator {op} needs "
                              f"`extern \"C\" __global__ __aicore__ void {snake}(...)` — rename it (msopgen derives the "
                              f"name from \"op\" in project_json_src: snake case of {op})")
    raise SubmissionError("kernel-name", stmt_lines["kernel_src"],
                          f"kernel_src defines no `extern \"C\" __global__ __aicore__ void {snake}(...)` — the entry "
                          f"point of operator {op} must be named {snake}")


def bind_functions(strings):
    """The names registered with m.def("name", ...) in python_bind_src (what custom_ops_lib offers)."""
    return re.findall(r'\.\s*def\s*\(\s*"([A-Za-z_]\w*)"', strings["python_bind_src"])


def write_project(sub_path, strings, lines, op, workdir):
    snake = snake_case(op)
    sub = sub_path

    def put(rel, name, cpp=True):
        p = os.path.join(workdir, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        text = strings[name]
        if cpp and lines[name]:
            text = f'#line {lines[name]} "{sub}"\n' + text
        if not text.endswith("\n"):
            text += "\n"
        # Rewrite only when changed: keeps mtimes (and caches keyed on them) stable across runs.
        try:
            with open(p, encoding="utf-8") as f:
                if f.read() == text:
                    return p
        except OSError:
            pass
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)
        return p

    files = {
        "tiling": put(f"op_host/{snake}_tiling.h", "host_tiling_src"),
        "host": put(f"op_host/{snake}.cpp", "host_operator_src"),
        "kernel": put(f"op_kernel/{snake}.cpp", "kernel_src"),
        "json": put(f"{snake}.json", "project_json_src", cpp=False),
        "bind": put("CppExtension/csrc/op.cpp", "python_bind_src"),
        "model": put("model_src.py", "model_src", cpp=False),
    }
    return files


def extract(sub_path, workdir):
    strings, lines, stmt_lines = parse(sub_path)
    op, desc = op_of(strings, lines, stmt_lines)
    snake = check_kernel_name(strings, lines, stmt_lines, op)
    os.makedirs(workdir, exist_ok=True)
    files = write_project(sub_path, strings, lines, op, workdir)
    return {
        "op": op, "kernel": snake, "project": os.path.abspath(workdir), "files": files,
        "functions": bind_functions(strings), "lines": lines, "model_src": strings["model_src"],
        "model_line": lines["model_src"] or stmt_lines["model_src"],
    }


def mapper(sub_path, info):
    """A function that rewrites `PROJECT_FILE:LINE` in diagnostics to `SUBMISSION.py:LINE` (the written C++ files
    start with a #line directive, so their line L is the submission's line N + L - 2)."""
    rules = []
    names = {"tiling": "host_tiling_src", "host": "host_operator_src", "kernel": "kernel_src",
             "bind": "python_bind_src", "json": "project_json_src"}
    for key, name in names.items():
        path = info["files"][key]
        first = info["lines"].get(name)
        base = first - 2 if (first and key != "json") else (first - 1 if first else None)
        rules.append((re.compile(re.escape(path) + r"(?::(\d+))?"), base, name))

    def apply(text):
        for rx, base, name in rules:
            def sub(m, base=base, name=name):
                if m.group(1) and base is not None:
                    return f"{sub_path}:{base + int(m.group(1))}"
                return f"{sub_path} ({name})"
            text = rx.sub(sub, text)
        return text
    return apply


def format_error(sub_path, e):
    where = f"{sub_path}:{e.line}" if e.line else sub_path
    return f"error[{e.category}] {where}: {e.message}"


def main(argv):
    if len(argv) != 3:
        print("usage: extract.py SUBMISSION.py WORKDIR", file=sys.stderr)
        return 2
    try:
        info = extract(argv[1], argv[2])
    except SubmissionError as e:
        print(format_error(argv[1], e), file=sys.stderr)
        return 3
    info.pop("model_src")
    print(json.dumps(info, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
