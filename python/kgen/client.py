"""An HTTP client of `kgen serve` on the standard library alone (urllib), with the retries a trainer needs: a 429 waits
for its Retry-After, a 504 or a dropped connection is sent again (the service answers a repeated request from its
results store, so a retry never runs an evaluation twice)."""
import json
import os
import threading
import time
import urllib.error
import urllib.request


class ServeError(RuntimeError):
    """A request kgen serve refused or could not answer: .status (HTTP), .code (error_code), .body (the JSON)."""

    def __init__(self, status, body):
        self.status = status
        self.body = body if isinstance(body, dict) else {"error_message": str(body)}
        self.code = self.body.get("error_code")
        super().__init__(f"kgen serve answered {status}: {self.body.get('error_message') or self.body}")


class Client:
    def __init__(self, url=None, timeout=1000.0, retries=8):
        self.url = (url or os.environ.get("KGEN_SERVE_URL") or "http://127.0.0.1:8000").rstrip("/")
        self.timeout = timeout
        self.retries = retries

    def _call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        last = None
        for attempt in range(self.retries + 1):
            req = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    raw = resp.read()
                    ctype = resp.headers.get("Content-Type", "")
                    return json.loads(raw) if ctype.startswith("application/json") else raw.decode()
            except urllib.error.HTTPError as e:
                raw = e.read()
                try:
                    payload = json.loads(raw)
                except ValueError:
                    payload = {"error_message": raw.decode(errors="replace")}
                last = ServeError(e.code, payload)
                if e.code == 429:
                    time.sleep(min(60.0, float(e.headers.get("Retry-After") or 1)))
                elif e.code in (502, 503, 504):
                    time.sleep(min(30.0, 0.5 * 2 ** attempt))
                else:
                    raise last from None
            except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
                last = e
                time.sleep(min(30.0, 0.2 * 2 ** attempt))
        raise last

    def health(self):
        return self._call("GET", "/health")

    def metrics(self):
        return self._call("GET", "/metrics")

    def evaluate(self, task, code, target="ascendc", trials=None, reference_code=None, **fields):
        """One candidate (or a model's whole reply) on one task -> the service's response dict (docs/rl.md)."""
        body = {"task_id": task, "kernel_code": code, "target": target, **fields}
        if trials is not None:
            body["num_correct_trials"] = trials
        if reference_code is not None:
            body["reference_code"] = reference_code
        return self._call("POST", "/evaluate", body)

    def evaluate_batch(self, requests, batch_id="kgen"):
        """Several request dicts at once (evaluated in parallel) -> their responses, in order. Those still running at
        the service's request timeout are asked for again (answered from the store once done)."""
        requests = list(requests)
        results = [None] * len(requests)
        todo = list(range(len(requests)))
        for attempt in range(self.retries + 1):
            got = self._call("POST", "/evaluate/batch", {"batch_id": batch_id,
                                                         "tasks": [requests[i] for i in todo]})["results"]
            again = []
            for i, r in zip(todo, got):
                results[i] = r
                if r.get("http_status") == 504:
                    again.append(i)
            if not again:
                break
            todo = again
        return results

    def reward(self, queries, prompts, labels):
        """OpenRLHF's remote reward call -> {"rewards", "scores", "extra_logs"}."""
        return self._call("POST", "/get_reward", {"query": list(queries), "prompts": list(prompts),
                                                   "labels": list(labels)})


_default = None
_lock = threading.Lock()


def default_client():
    """The client of $KGEN_SERVE_URL, else of a local kgen serve started once for this process."""
    global _default
    with _lock:
        if _default is None:
            if os.environ.get("KGEN_SERVE_URL"):
                _default = Client()
            else:
                from .local import LocalServer
                server = LocalServer()
                server.start()
                _default = Client(server.url)
                _default.server = server
        return _default


def evaluate(task, code, target="ascendc", **kw):
    """kgen.evaluate(task_id, code, target="ascendc"|"mkb"|"tile", trials=N, reference_code=...) -> dict."""
    return default_client().evaluate(task, code, target=target, **kw)
