"""Writes the negative MultiKernelBench submissions of tests/mkb_test.sh into DIR: each is examples/mkb/add.py with one
mistake, marked `ERROR-HERE`, and a first line `# kgen-expect: CATEGORY [@]` (@: the diagnostic names the marked line).

usage: negatives.py ADD_PY DIR
"""
import pathlib
import sys

# name: (expected category, with a line?, text of add.py to replace, replacement)
NEGATIVES = {
    "aten_matmul": ("cheating", True,
                    "    at::Tensor z = at::empty_like(x);\n    EXEC_NPU_CMD(aclnnAddCustom, x, y, z);\n",
                    "    at::Tensor z = at::matmul(x, y.t());  // ERROR-HERE\n"),
    "host_compile": ("compile", True,
                     "static ge::graphStatus TilingFunc(gert::TilingContext *context)\n{\n",
                     "static ge::graphStatus TilingFunc(gert::TilingContext *context)\n{\n"
                     "    int unused = context->GetAttr<int>(0);  // ERROR-HERE\n"),
    "input_count": ("op-def", True,
                    "    EXEC_NPU_CMD(aclnnAddCustom, x, y, z);\n",
                    "    EXEC_NPU_CMD(aclnnAddCustom, x, y, y, z);  // ERROR-HERE\n"),
    "kernel_name": ("kernel-name", True,
                    'extern "C" __global__ __aicore__ void add_custom(',
                    '/* ERROR-HERE */ extern "C" __global__ __aicore__ void add_kernel('),
    "missing_string": ("submission", False, "model_src = '''", "unused_src = '''"),
    "syntax_error": ("submission", True, "host_tiling_src = ", 'if True print("x")  # ERROR-HERE\n\nhost_tiling_src = '),
    "tiling_fail": ("tiling", False,
                    "    context->SetBlockDim(",
                    "    if (total > 0) {\n        return ge::GRAPH_FAILED;  // ERROR-HERE\n    }\n    context->SetBlockDim("),
}


def main():
    src = pathlib.Path(sys.argv[1]).read_text()
    out = pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    for name, (category, at_line, old, new) in NEGATIVES.items():
        if src.count(old) < 1:
            sys.exit(f"negatives.py: {name}: the text to replace is not in {sys.argv[1]}: {old!r}")
        text = src.replace(old, new, 1)
        (out / f"{name}.py").write_text(f"# kgen-expect: {category}{' @' if at_line else ''}\n{text}")


if __name__ == "__main__":
    main()
