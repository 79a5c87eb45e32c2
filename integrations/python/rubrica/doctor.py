"""`python3 -m rubrica doctor [URL]`: can a trainer's node use this rubrica service?

Run it on the node where the trainer's reward function runs, with the environment the trainer
has. Four checks, each printed with its latency, stopping at the first that fails:

    reachable    GET /healthz answers (no token needed)
    authorised   GET /v1/components with RUBRICA_TOKEN (or --token) is not refused; when the
                 service lists component keys, they must match this package's
                 (rubrica.components) — a mismatch means the two sides disagree on comp_ keys
    round trip   POST /v1/rewards with one small SVG rollout gets a result of the expected
                 reward kind (RUBRICA_REWARD or --reward) back; a grader fault fails
    latency      the round trip's wall time, printed

Exit codes (stable, for scripts):
    0  every check passed
    2  usage error (bad arguments)
    3  not reachable (connection refused, DNS, timeout, or /healthz not 200)
    4  not authorised (401/403: RUBRICA_TOKEN missing or wrong)
    5  the round trip failed (HTTP error, a grader fault, a malformed answer)
    6  contract mismatch (component keys, or a record of another reward kind)
"""

import http.client
import sys
import time

from rubrica.client import RubricaClient, RubricaError, RubricaUnavailable
from rubrica.components import REWARD_COMPONENT_KEYS, configured_kind
from rubrica.records import is_fault

EXIT_OK, EXIT_USAGE, EXIT_UNREACHABLE, EXIT_UNAUTHORISED, EXIT_ROUND_TRIP, EXIT_CONTRACT = 0, 2, 3, 4, 5, 6

PROBE_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
    '<circle cx="32" cy="32" r="24" fill="#d33"/></svg>'
)


def _say(out, ok, name, detail):
    out.write(f"{'ok  ' if ok else 'FAIL'} {name:<11} {detail}\n")


def run(url, token=None, timeout=30.0, reward=None, prompt_id=None, prompt="a red circle", out=sys.stdout):
    """Run the checks; returns the exit code (see the module doc)."""
    kind, explicit = configured_kind(reward)
    client = RubricaClient(url=url, token=token, timeout=timeout, retries=0, deadline=timeout)
    conn = client.connection
    # 1. reachable
    try:
        answer = conn.request("GET", "/healthz")
    except (OSError, http.client.HTTPException) as err:
        _say(out, False, "reachable", f"{client.url}: {type(err).__name__}: {err}")
        return EXIT_UNREACHABLE
    if answer.status != 200:
        _say(out, False, "reachable", f"{client.url}/healthz answered {answer.status}")
        return EXIT_UNREACHABLE
    _say(out, True, "reachable", f"{client.url} ({answer.seconds * 1000:.1f} ms)")
    # 2. authorised (and the component contract, when the service publishes it)
    try:
        answer = conn.request("GET", "/v1/components")
    except (OSError, http.client.HTTPException) as err:
        _say(out, False, "authorised", f"{type(err).__name__}: {err}")
        return EXIT_UNREACHABLE
    if answer.status in (401, 403):
        who = "no token sent (set RUBRICA_TOKEN)" if not client.token else "the token was refused"
        _say(out, False, "authorised", f"HTTP {answer.status}: {who}")
        return EXIT_UNAUTHORISED
    if answer.status == 200:
        try:
            served = {k: tuple(v) for k, v in answer.json().items()}
        except (ValueError, AttributeError, TypeError):
            _say(out, False, "authorised", "GET /v1/components answered something that is not a key table")
            return EXIT_CONTRACT
        if served != REWARD_COMPONENT_KEYS:
            _say(out, False, "authorised", f"component keys differ: service {served}, package {REWARD_COMPONENT_KEYS}")
            return EXIT_CONTRACT
        _say(out, True, "authorised", f"component keys agree ({answer.seconds * 1000:.1f} ms)")
    elif answer.status == 404:
        _say(out, True, "authorised", "token accepted (the service publishes no component keys: older version)")
    else:
        _say(out, False, "authorised", f"GET /v1/components answered {answer.status}")
        return EXIT_ROUND_TRIP
    # 3. one rollout round trip
    item = {"id": "doctor-1", "prompt_id": prompt_id, "prompt": prompt, "completion": "```svg\n" + PROBE_SVG + "\n```"}
    start = time.monotonic()
    try:
        results = client.score_items([item], reward=kind if explicit else None)
    except RubricaUnavailable as err:
        _say(out, False, "round trip", str(err))
        return EXIT_UNREACHABLE
    except RubricaError as err:
        _say(out, False, "round trip", str(err))
        return EXIT_UNAUTHORISED if err.status in (401, 403) else EXIT_ROUND_TRIP
    ms = (time.monotonic() - start) * 1000
    r = results[0]
    if r.get("reward_kind") not in (None, kind):
        _say(out, False, "round trip", f"the service scored with {r.get('reward_kind')!r}; this node expects {kind!r}")
        return EXIT_CONTRACT
    if is_fault(r):
        _say(out, False, "round trip", f"grader fault: {r.get('reason')}: {r.get('message', '')}")
        return EXIT_ROUND_TRIP
    detail = f"status {r.get('status')}" + (f" ({r.get('reason')})" if r.get("reason") else "")
    detail += f", reward {r.get('reward')}, kind {r.get('reward_kind')}"
    if r.get("reason") == "no_rubric":
        detail += " — the probe was not judged: give --prompt-id a rubric id the service holds"
    _say(out, True, "round trip", detail)
    _say(out, True, "latency", f"{ms:.1f} ms for one rollout" + (" (cached)" if r.get("cached") else ""))
    client.close()
    return EXIT_OK


def main(args, out=sys.stdout):
    try:
        return run(
            args.url, token=args.token, timeout=args.timeout, reward=args.reward, prompt_id=args.prompt_id, out=out
        )
    except ValueError as err:  # an unknown reward kind, a URL that is not http(s)
        sys.stderr.write(f"rubrica doctor: {err}\n")
        return EXIT_USAGE


__all__ = ["run", "main"]
