"""Shared HTTP client for the rubrica reward service (standard library only).

The trainer adapters (rubrica.verl, rubrica.openrlhf, rubrica.trl) all post through this
client. Configuration comes from the environment, so a training config only has to point
at the adapter file:

    RUBRICA_URL       base URL of `rubrica serve` (default http://127.0.0.1:8787)
    RUBRICA_TOKEN     bearer token, when the server was started with --token
    RUBRICA_TIMEOUT   seconds to wait for one request (default 900: a whole GRPO batch)
    RUBRICA_RETRIES   retries after the first attempt (default 5)
    RUBRICA_BATCH     most rollouts per request; larger batches are split (default 2048)

Transient failures (connection refused, timeouts, 429, 502, 503, 504) are retried with
exponential backoff and jitter, honouring Retry-After. When the service stays unreachable
the call raises RubricaUnavailable: a training step must fail loudly, never train on a
silent reward of 0. A request the server rejects (400, 401, 413) raises RubricaError at once.
"""

import json
import os
import random
import time
import urllib.error
import urllib.request

__all__ = ["RubricaClient", "RubricaError", "RubricaUnavailable", "default_client"]

RETRYABLE_STATUS = {408, 429, 500, 502, 503, 504}


class RubricaError(RuntimeError):
    """The rubrica service refused a request (bad request, auth) or answered nonsense."""

    def __init__(self, message, status=None, code=None):
        super().__init__(message)
        self.status = status
        self.code = code


class RubricaUnavailable(RubricaError):
    """The rubrica service could not be reached after every retry."""


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


def _env_number(name, default, cast):
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return cast(raw)
    except ValueError as err:
        raise RubricaError(f"{name}={raw!r} is not a number") from err


class RubricaClient:
    def __init__(self, url=None, token=None, timeout=None, retries=None, batch=None, backoff=0.5):
        self.url = (url or os.environ.get("RUBRICA_URL") or "http://127.0.0.1:8787").rstrip("/")
        self.token = token if token is not None else (os.environ.get("RUBRICA_TOKEN") or None)
        self.timeout = timeout if timeout is not None else _env_number("RUBRICA_TIMEOUT", 900.0, float)
        self.retries = retries if retries is not None else _env_number("RUBRICA_RETRIES", 5, int)
        self.batch = batch if batch is not None else _env_number("RUBRICA_BATCH", 2048, int)
        self.backoff = backoff

    def _once(self, path, payload):
        req = urllib.request.Request(self.url + path, data=payload, method="POST")
        req.add_header("Content-Type", "application/json")
        req.add_header("Accept", "application/json")
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        with urllib.request.urlopen(req, timeout=self.timeout) as res:
            return json.loads(res.read().decode("utf-8"))

    def post(self, path, body):
        """POST a JSON body; returns the decoded answer. Retries transient failures."""
        payload = json.dumps(body, default=_jsonable).encode("utf-8")
        last = None
        for attempt in range(self.retries + 1):
            wait = self.backoff * (2**attempt) * (1 + random.random())
            try:
                return self._once(path, payload)
            except urllib.error.HTTPError as err:
                code, detail = _error_detail(err)
                if err.code not in RETRYABLE_STATUS:
                    raise RubricaError(
                        f"rubrica {path} answered {err.code}: {detail}", status=err.code, code=code
                    ) from None
                last = f"HTTP {err.code}: {detail}"
                retry_after = err.headers.get("Retry-After") if err.headers else None
                if retry_after and retry_after.strip().isdigit():
                    wait = max(wait, float(retry_after))
            except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as err:
                last = f"{type(err).__name__}: {getattr(err, 'reason', err)}"
            except json.JSONDecodeError as err:
                last = f"answer was not JSON ({err})"
            if attempt < self.retries:
                time.sleep(min(wait, 60.0))
        raise RubricaUnavailable(
            f"rubrica service at {self.url} unavailable after {self.retries + 1} attempts "
            f"({last}). Is `rubrica serve` running and RUBRICA_URL right?"
        )

    def post_batched(self, path, lists, extra=None):
        """POST parallel lists in slices of `self.batch`; answers are concatenated in order.

        `lists` maps field names to equal-length lists; `extra` holds fields sent unchanged.
        Returns the list of per-slice answers.
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


def _error_detail(err):
    """(code, message) from rubrica's error body {"error": {"code", "message"}}."""
    try:
        body = err.read().decode("utf-8", "replace")
    except Exception:  # noqa: BLE001 - a body we cannot read is simply not shown
        return None, str(getattr(err, "reason", ""))
    try:
        info = json.loads(body).get("error", {})
        return info.get("code"), info.get("message") or body
    except (ValueError, AttributeError):
        return None, body[:500]


_default = None


def default_client():
    """A client configured from the environment, created on first use."""
    global _default
    if _default is None:
        _default = RubricaClient()
    return _default
