"""kgen's MultiKernelBench support: extraction of the six strings (extract.py), the driver of `kgen op run-mkb`
(run_mkb.py), and the CPU shims a submission's model_src imports (shims/torch_npu, the generated custom_ops_lib)."""
