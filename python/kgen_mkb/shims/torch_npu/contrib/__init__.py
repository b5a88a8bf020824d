"""torch_npu.contrib of kgen's torch_npu shim (see the package's doc)."""
