"""One POST /v1/rewards to `rubrica serve`, with retries and a deadline (standard library only).

Why urllib and not the `rubrica` package's client: a package pushed to the Environments Hub is
installed by the hub's installer from its own dependency list, and `rubrica` (the trainer
adapters) is not on a package index. The call is small: one JSON body, one JSON answer.

Transient failures (connection refused or reset, timeouts, 408, 429, 500, 502, 503, 504) are
retried with exponential backoff until `retries` or `deadline` run out, then
RubricaUnreachable is raised. Any other non-2xx (400, 401, 403, 404, 413) raises
RubricaServiceError at once: a wrong token or a malformed item is not fixed by retrying.
Neither is ever turned into a score: verifiers marks a rollout whose judge raised as errored,
and prime-rl leaves errored rollouts out of training.
"""

import json
import random
import socket
import time
import urllib.error
import urllib.request

__all__ = ["RubricaJudgeError", "RubricaServiceError", "RubricaUnreachable", "RubricaGraderFault", "post_rewards"]

RETRYABLE_STATUS = {408, 429, 500, 502, 503, 504}


class RubricaJudgeError(RuntimeError):
    """Base of every error the rubrica judge raises instead of returning a score."""


class RubricaServiceError(RubricaJudgeError):
    """rubrica refused the request (auth, bad item) or answered something that is not a result."""

    def __init__(self, message, status=None, code=None):
        super().__init__(message)
        self.status = status
        self.code = code


class RubricaUnreachable(RubricaJudgeError):
    """rubrica could not be reached (or kept failing transiently) within the retries/deadline."""


class RubricaGraderFault(RubricaJudgeError):
    """rubrica's grader failed on this rollout (judge, scorer, cache or infrastructure)."""

    def __init__(self, message, result):
        super().__init__(message)
        self.result = result


def _error_detail(body):
    text = body.decode("utf-8", "replace")
    try:
        info = json.loads(text).get("error", {})
        return info.get("code"), info.get("message") or text
    except (ValueError, AttributeError):
        return None, text[:500]


def post_rewards(url, token, body, timeout=900.0, retries=3, deadline=1800.0, backoff=0.5):
    """POST `body` to {url}/v1/rewards; returns the decoded JSON answer of a 2xx."""
    data = json.dumps(body).encode("utf-8")
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    target = url.rstrip("/") + "/v1/rewards"
    give_up_at = time.monotonic() + deadline
    last = None
    for attempt in range(retries + 1):
        wait = min(backoff * (2**attempt) * (1 + random.random()), 30.0)
        left = give_up_at - time.monotonic()
        request = urllib.request.Request(target, data=data, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=max(0.1, min(timeout, left))) as answer:
                raw = answer.read()
            try:
                return json.loads(raw.decode("utf-8"))
            except ValueError as err:
                last = f"answer was not JSON ({err})"
        except urllib.error.HTTPError as err:
            code, detail = _error_detail(err.read())
            if err.code not in RETRYABLE_STATUS:
                raise RubricaServiceError(f"rubrica POST /v1/rewards answered {err.code}: {detail}", err.code, code) from None
            last = f"HTTP {err.code}: {detail}"
            retry_after = (err.headers.get("Retry-After") or "").strip()
            if retry_after.isdigit():
                wait = max(wait, float(retry_after))
        except (urllib.error.URLError, socket.timeout, ConnectionError, OSError) as err:
            last = f"{type(err).__name__}: {getattr(err, 'reason', err)}"
        if attempt == retries or time.monotonic() + wait > give_up_at:
            break
        time.sleep(wait)
    raise RubricaUnreachable(
        f"rubrica service at {url} unavailable after {attempt + 1} attempt(s) ({last}); "
        "is `rubrica serve` running and the judge's url (or RUBRICA_URL) right?"
    )
