"""Writes the negative MultiKernelBench submissions of tests/mkb_test.sh into DIR: each is one of examples/mkb/*.py
(add.py unless named) with one mistake, marked `ERROR-HERE`, a first line `# kgen-expect: CATEGORY [@]` (@: the
diagnostic names the marked line) and a second `# kgen-task: NAME` (the reference task, examples/mkb/tasks/NAME.py).
The "chip" negatives are what the chip refuses (or computes wrongly) and g++ alone would accept.

usage: negatives.py EXAMPLES_MKB_DIR DIR
"""
import pathlib
import sys

# name: (expected category, with a line?, text of the example to replace, replacement[, example])
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
    # The chip's compiler: ASCEND_IS_AIC is `constexpr(...)`, valid only right after `if`.
    "chip_core_guard_parens": ("compile", True,
                               "    GET_TILING_DATA(tilingData, tiling);\n",
                               "    if (ASCEND_IS_AIC) { return; }  // ERROR-HERE\n    GET_TILING_DATA(tilingData, tiling);\n"),
    # The chip's compiler: no libm in __aicore__ code.
    "chip_host_exp": ("compile", True,
                      "        AscendC::Add(z, x, y, n);\n",
                      "        float e = std::exp(1.0f);  // ERROR-HERE\n        AscendC::Add(z, x, y, n);\n"),
    # pytorch_npu_helper.hpp calls aclnn through a pointer typed from the arguments: a float for a double attr
    # arrives as about 0 (the chip's aarch64 host), the slope is lost and the answer is wrong, as on the chip.
    "chip_float_attr": ("mismatch", False,
                        "    EXEC_NPU_CMD(aclnnLeakyReluCustom, x, negative_slope, y);\n",
                        "    float slope = negative_slope;\n"
                        "    EXEC_NPU_CMD(aclnnLeakyReluCustom, x, slope, y);  // ERROR-HERE\n", "leaky_relu"),
    # torch refuses to register a kernel that takes float (it wants double).
    "chip_torch_float_param": ("compile", True,
                               "    m.impl(\"leaky_relu_custom\", &leaky_relu_custom_impl_npu);\n",
                               "    m.impl(\"leaky_relu_custom\", &leaky_relu_float);  // ERROR-HERE\n", "leaky_relu"),
    # A Python exception in ModelNew is a runtime failure (the op built), not a compile error.
    "model_raises": ("model", True,
                     "        return custom_ops_lib.add_custom(a, b)\n",
                     "        raise ValueError(\"shape not supported\")  # ERROR-HERE\n"),
}
# Text added before the replaced text, when a negative needs a helper.
PRELUDE = {
    "chip_torch_float_param": ("TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {\n",
                               "at::Tensor leaky_relu_float(const at::Tensor &x, float negative_slope)\n"
                               "{\n    return leaky_relu_custom_impl_npu(x, negative_slope);\n}\n\n"),
}


def main():
    examples = pathlib.Path(sys.argv[1])
    out = pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    for name, (category, at_line, old, new, *base) in NEGATIVES.items():
        example = base[0] if base else "add"
        src = (examples / f"{example}.py").read_text()
        anchor, added = PRELUDE.get(name, (None, None))
        if anchor is not None:
            if anchor not in src:
                sys.exit(f"negatives.py: {name}: {anchor!r} is not in {example}.py")
            src = src.replace(anchor, added + anchor, 1)
        if src.count(old) < 1:
            sys.exit(f"negatives.py: {name}: the text to replace is not in {example}.py: {old!r}")
        text = src.replace(old, new, 1)
        (out / f"{name}.py").write_text(f"# kgen-expect: {category}{' @' if at_line else ''}\n# kgen-task: {example}\n{text}")


if __name__ == "__main__":
    main()
