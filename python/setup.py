"""The kgen Python package: a client of `kgen serve` and the reward adapters of verl, TRL and OpenRLHF (docs/rl.md).

Install offline from Debian's python3 and setuptools:  pip install --no-build-isolation ./python
(inside a venv made with --system-site-packages, or add --break-system-packages). Only the `kgen` package is
installed; kgen_eval and kgen_mkb are the evaluator's own scripts and run from the source tree.
"""
from setuptools import setup

setup(
    name="kgen",
    version="0.1.0",
    description="Client and RL reward adapters for kgen serve (AscendC kernel evaluation)",
    packages=["kgen"],   # kgen.cluster: evaluations as data for Dask and Ray (docs/scale-out.md)
    python_requires=">=3.9",
    install_requires=[],
)
