"""kgen's stand-in for NPUKernelBench's `framework` package, which task files import for its precision check
(`from framework.utils import check_precision`); the real package needs the harness's configuration and pandas."""
