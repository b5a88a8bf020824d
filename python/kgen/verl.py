"""verl's custom reward function over kgen serve.

    custom_reward_function.path=<kgen>/python/kgen/verl.py  custom_reward_function.name=compute_score
    (or name=compute_score_batch with reward_model.reward_manager=batch)

The dataset row's reward_model.ground_truth is the label: a task id ("activation/relu"), "TARGET:TASK_ID", or a JSON
object of request fields. The score is kgen's reward (docs/rl.md); the other keys are logged by verl's reward manager.
"""
import os
import sys

if __package__ in (None, ""):   # loaded by path (verl's custom_reward_function.path): make `kgen` importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from kgen.client import default_client
else:
    from .client import default_client


def _score(resp):
    reward = resp.get("reward") or {}
    out = {"score": float(reward.get("total", 0.0)),
           "correct": float(bool(resp.get("correctness"))),
           "compiled": float(bool(resp.get("compiled"))),
           "speedup": float(resp.get("speedup") or 0.0),
           "hack": float(bool(resp.get("decoy_kernel"))),
           "cached": float(bool(resp.get("cached")))}
    return out


def _request(solution_str, ground_truth, extra_info):
    req = {"label": ground_truth, "kernel_code": solution_str}
    for k in ("target", "reference_code", "num_correct_trials"):
        if isinstance(extra_info, dict) and k in extra_info:
            req[k] = extra_info[k]
    return req


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs):
    """verl's compute_score(data_source, solution_str, ground_truth, extra_info) -> {"score": float, ...}."""
    return _score(default_client()._call("POST", "/evaluate", _request(solution_str, ground_truth, extra_info)))


def compute_score_batch(data_sources, solution_strs, ground_truths, extra_infos=None, **kwargs):
    """verl's batch form (reward_manager=batch): one /evaluate/batch call, evaluated in parallel -> list of dicts."""
    extra_infos = extra_infos if extra_infos is not None else [None] * len(solution_strs)
    reqs = [_request(s, g, e) for s, g, e in zip(solution_strs, ground_truths, extra_infos)]
    results = default_client().evaluate_batch(reqs, batch_id="verl")
    return [_score(r) if "reward" in r else {**_score({}), "score": 0.0} for r in results]
