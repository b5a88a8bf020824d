"""kgen's bridge to a Dask cluster (dask_bridge.py), used by `kgen bench --cluster`."""
