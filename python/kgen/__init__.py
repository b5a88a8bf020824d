"""kgen from Python: evaluate AscendC candidates through `kgen serve` and use its reward in RL trainers.

    import kgen
    r = kgen.evaluate("activation/relu", reply_text, target="ascendc")
    r["correctness"], r["speedup"], r["reward"]["total"]

`evaluate` talks to the service at $KGEN_SERVE_URL, else starts a local `kgen serve` once per process (the kgen
executable from $KGEN_BIN or PATH). Adapters: kgen.verl.compute_score / compute_score_batch, kgen.trl.reward_func,
kgen.openrlhf.reward_func (also usable as OpenRLHF's --remote_rm_url file). See docs/rl.md.
"""
from .client import Client, ServeError, evaluate, default_client
from .local import LocalServer

__all__ = ["Client", "ServeError", "LocalServer", "evaluate", "default_client"]
