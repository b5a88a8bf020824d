"""OpenRLHF's reward function file over kgen serve:  --remote_rm_url <kgen>/python/kgen/openrlhf.py --label_key label

(or point --remote_rm_url at http://HOST:PORT/get_reward directly: the service speaks the same protocol). OpenRLHF
calls reward_func(queries, prompts, labels) where a query is the prompt followed by the model's response.
"""
import os
import sys

if __package__ in (None, ""):   # loaded by path (spec_from_file_location): make `kgen` importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from kgen.client import default_client
else:
    from .client import default_client


def reward_func(queries, prompts, labels, **kwargs):
    """-> {"rewards", "scores", "extra_logs"} as OpenRLHF reads them (tensors when torch is importable)."""
    r = default_client().reward(queries, prompts, labels)
    try:
        import torch
        conv = lambda v: torch.tensor(v, dtype=torch.float32)
    except ImportError:
        conv = list
    return {"rewards": conv(r["rewards"]), "scores": conv(r["scores"]),
            "extra_logs": {k: conv(v) for k, v in r["extra_logs"].items()}}
