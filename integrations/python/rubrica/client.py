"""Shared HTTP client for the rubrica reward service (standard library only).

Every trainer adapter (rubrica.verl, rubrica.trl, rubrica.slime, rubrica.openrlhf) and
`python3 -m rubrica doctor` post through this client. Configuration comes from the
environment of the process that calls it, so a training config only names the function:

    RUBRICA_URL          base URL of `rubrica serve` (default http://127.0.0.1:8787), or several
                         replicas comma-separated (failover on connection errors)
    RUBRICA_TOKEN        bearer token, when the server was started with --token
    RUBRICA_TIMEOUT      seconds to wait for one HTTP answer (default 900: a whole GRPO batch)
    RUBRICA_RETRIES      retries after the first attempt (default 5)
    RUBRICA_DEADLINE     seconds one call may spend over all its attempts (default 1800)
    RUBRICA_BATCH        most rollouts per request; larger batches are split (default 2048)
    RUBRICA_CONNECTIONS  keep-alive connections per process, i.e. requests in flight (default 8)
    RUBRICA_WINDOW_MS    micro-batching window of the per-sample adapters (default 5)

Transient failures (connection refused or reset, timeouts, 408, 429, 500, 502, 503, 504) are
retried with exponential backoff and jitter, honouring Retry-After, until the retries or the
deadline run out; then the call raises RubricaUnavailable. A request the server refuses
(400, 401, 403, 404, 413) raises RubricaError at once: it is a configuration error that no
retry fixes. What an adapter makes of RubricaUnavailable is documented per trainer
(docs/training-loop.md): never a silent 0.
"""

import http.client
import json
import os
import random
import time

from rubrica.connection import Connection, Replicas, parse_urls
from rubrica.errors import RubricaError, RubricaUnavailable, env_number as _env_number

__all__ = ["RubricaClient", "RubricaError", "RubricaUnavailable", "default_client", "reset_default_client"]

RETRYABLE_STATUS = {408, 429, 500, 502, 503, 504}


def _jsonable(value):
    # verl hands numpy arrays and numpy scalars (e.g. extra_info["index"]) to reward
    # functions; json cannot encode them, but they all know how to become plain Python.
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, (set, tuple)):
        return list(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    raise TypeError(f"cannot send {type(value).__name__} to rubrica")


def _error_detail(body):
    """(code, message) from rubrica's error body {"error": {"code", "message"}}."""
    text = body.decode("utf-8", "replace")
    try:
        info = json.loads(text).get("error", {})
        return info.get("code"), info.get("message") or text
    except (ValueError, AttributeError):
        return None, text[:500]


class RubricaClient:
    """Retries, deadline and JSON on top of one pooled Connection (rubrica.connection)."""

    def __init__(
        self, url=None, token=None, timeout=None, retries=None, batch=None, backoff=0.5, deadline=None, connections=None
    ):
        # One URL, a list of replicas, or RUBRICA_URL="http://a,http://b" (failover on
        # connection errors: rubrica.connection.Replicas).
        urls = parse_urls(url or os.environ.get("RUBRICA_URL") or "http://127.0.0.1:8787")
        self.url = ",".join(urls)
        self.token = token if token is not None else (os.environ.get("RUBRICA_TOKEN") or None)
        self.timeout = timeout if timeout is not None else _env_number("RUBRICA_TIMEOUT", 900.0, float)
        self.retries = retries if retries is not None else _env_number("RUBRICA_RETRIES", 5, int)
        self.deadline = deadline if deadline is not None else _env_number("RUBRICA_DEADLINE", 1800.0, float)
        self.batch = batch if batch is not None else _env_number("RUBRICA_BATCH", 2048, int)
        size = connections if connections is not None else _env_number("RUBRICA_CONNECTIONS", 8, int)
        self.backoff = backoff
        if len(urls) == 1:
            self.connection = Connection(urls[0], token=self.token, timeout=self.timeout, size=size)
        else:
            self.connection = Replicas(urls, token=self.token, timeout=self.timeout, size=size)
        self.requests = 0  # HTTP requests sent, retries included (tests compare with the server's count)

    def request(self, method, path, body=None):
        """One call with retries: returns the decoded JSON answer of a 2xx."""
        payload = None if body is None else json.dumps(body, default=_jsonable).encode("utf-8")
        give_up_at = time.monotonic() + self.deadline
        last = None
        attempts = 0
        for attempt in range(self.retries + 1):
            attempts = attempt + 1
            wait = min(self.backoff * (2**attempt) * (1 + random.random()), 30.0)
            try:
                self.requests += 1
                answer = self.connection.request(method, path, payload)
            except (OSError, http.client.HTTPException) as err:
                last = f"{type(err).__name__}: {err}"
            else:
                if 200 <= answer.status < 300:
                    try:
                        return answer.json()
                    except ValueError as err:
                        last = f"answer was not JSON ({err})"
                else:
                    code, detail = _error_detail(answer.body)
                    if answer.status not in RETRYABLE_STATUS:
                        raise RubricaError(
                            f"rubrica {method} {path} answered {answer.status}: {detail}", status=answer.status, code=code
                        )
                    last = f"HTTP {answer.status}: {detail}"
                    retry_after = answer.headers.get("retry-after", "").strip()
                    if retry_after.isdigit():
                        wait = max(wait, float(retry_after))
            if attempt == self.retries or time.monotonic() + wait > give_up_at:
                break
            time.sleep(wait)
        raise RubricaUnavailable(
            f"rubrica service at {self.url} unavailable after {attempts} attempts "
            f"({last}). Is `rubrica serve` running and RUBRICA_URL right?"
        )

    def post(self, path, body):
        """POST a JSON body; returns the decoded answer. Retries transient failures."""
        return self.request("POST", path, body)

    def get(self, path):
        """GET a JSON answer, with the same retries."""
        return self.request("GET", path)

    def post_batched(self, path, lists, extra=None):
        """POST parallel lists in slices of `self.batch`; returns the list of per-slice answers.

        `lists` maps field names to equal-length lists; `extra` holds fields sent unchanged.
        """
        n = len(next(iter(lists.values()))) if lists else 0
        answers = []
        step = max(1, self.batch)
        for start in range(0, n, step):
            body = {k: list(v[start : start + step]) for k, v in lists.items()}
            if extra:
                body.update(extra)
            answers.append(self.post(path, body))
        return answers

    def score_items(self, items, reward=None):
        """POST /v1/rewards for rollout items (split by `batch`); the results, in order."""
        results = []
        step = max(1, self.batch)
        for start in range(0, len(items), step):
            body = {"items": items[start : start + step]}
            if reward is not None:
                body["reward"] = reward
            answer = self.post("/v1/rewards", body)
            got = answer.get("results") if isinstance(answer, dict) else None
            if not isinstance(got, list) or len(got) != len(body["items"]):
                raise RubricaError(f"rubrica /v1/rewards answered {len(got or [])} results for {len(body['items'])} items")
            results.extend(got)
        return results

    def close(self):
        self.connection.close()


_default = None


def default_client():
    """A client configured from the environment, created on first use (one per process)."""
    global _default
    if _default is None:
        _default = RubricaClient()
    return _default


def reset_default_client():
    """Forget the default client (tests change RUBRICA_* between cases)."""
    global _default
    if _default is not None:
        _default.close()
    _default = None
    # Modules that hold on to the default client (the batcher) forget it too. They register
    # here rather than being imported, so that this module imports none of its users.
    for forget in _on_reset:
        forget()


_on_reset = []


def on_reset_default_client(forget):
    """Call `forget()` whenever reset_default_client() runs (the batcher's registration)."""
    _on_reset.append(forget)
