"""NPUKernelBench tasks on kgen: a task folder (api_desc.md, validation/{module.py, prepare_inputs.py,
test_cases.csv, pybind.cpp}) and an op project evaluated as NPUKernelBench's harness does (docs/benchmark.md)."""
