"""TRL's reward function over kgen serve (GRPOTrainer(reward_funcs=[kgen.trl.reward_func], ...)).

TRL calls reward_func(prompts=..., completions=..., completion_ids=..., **columns) with every dataset column as a
list; the task comes from the column "label" (or "task_id", or "ground_truth"). Completions may be plain strings or
conversations (a list of {"role", "content"} messages; the last assistant message is the reply). One /evaluate/batch
call evaluates the whole group in parallel; the result is kgen's reward per completion (docs/rl.md).
"""
from .client import default_client


def _text(completion):
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list):   # conversational: [{"role": "assistant", "content": ...}, ...]
        for m in reversed(completion):
            if isinstance(m, dict) and m.get("role", "assistant") == "assistant":
                c = m.get("content", "")
                return c if isinstance(c, str) else "".join(p.get("text", "") for p in c if isinstance(p, dict))
    return str(completion)


def reward_func(prompts=None, completions=None, completion_ids=None, **kwargs):
    labels = kwargs.get("label") or kwargs.get("task_id") or kwargs.get("ground_truth")
    if labels is None:
        raise ValueError("kgen.trl.reward_func needs a dataset column 'label' (or 'task_id') naming each row's task")
    targets = kwargs.get("target")
    reqs = []
    for i, c in enumerate(completions):
        r = {"label": labels[i], "kernel_code": _text(c)}
        if targets is not None:
            r["target"] = targets[i]
        reqs.append(r)
    results = default_client().evaluate_batch(reqs, batch_id="trl")
    # Newer TRL passes log_extra(column, values) and log_metric(name, value): the verdicts and rates are logged.
    if callable(kwargs.get("log_extra")):
        kwargs["log_extra"]("kgen_verdict", [r.get("verdict", r.get("error_code", "")) for r in results])
    if callable(kwargs.get("log_metric")) and results:
        for name, field in (("kgen/correct", "correctness"), ("kgen/compiled", "compiled"), ("kgen/hack", "decoy_kernel")):
            kwargs["log_metric"](name, sum(bool(r.get(field)) for r in results) / len(results))
    return [float(r["reward"]["total"]) if "reward" in r else None for r in results]


reward_func.__name__ = "kgen_reward"
