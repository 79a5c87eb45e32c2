"""From a POST /v1/rewards result to what a trainer reads: flags, components, fault values.

Shared by the per-sample adapters (verl, slime) and TRL, so that every path — measured,
unscoreable, grader fault, service unreachable — gives the same fields:

    score        the reward trained on (see "faults" below)
    status       "ok" | "unscoreable" | "grader_error" | "gated"  (a string: verl's metrics skip it)
    reason       why not ok ("" when ok; "unreachable" when the service could not be reached)
    scored, unscoreable, gated, grader_error, judge_error, unreachable, no_rubric,
    renders, blank, cached    0/1 flags
    judge_calls  judge requests this rollout cost (0 when cached)
    render_ms    render wall time (0.0 when nothing was rendered)
    comp_<key>   the reward kind's components (rubrica.components), summing to score

Faults: a grader fault is never a measurement. Where the trainer cannot leave a sample out
(verl, slime), its score is the mean reward of the measured rollouts of its group that came in
the same request, and each comp_<key> the mean of theirs — so its advantage is 0 and the
group's mean unchanged; with no measured group-mate, and when the service is unreachable, it
is RUBRICA_FAULT_SCORE (default 0.0) with components 0. `grader_error: 1` marks both.

Gated (issue 41): a rollout a gated check stopped (e.g. judge_text, a verdict written for the
judge) is the policy's own 0 — never imputed, and it counts among its group-mates' rewards when
a fault is imputed. `gated: 1` marks it; `reason` names the check.
"""

import math
import os
import sys

from rubrica.errors import RubricaError
from rubrica.components import component_keys

__all__ = ["BASE_FIELDS", "impute_faults", "is_fault", "flat_fields", "fault_fields", "check_kind", "fault_score"]

BASE_FIELDS = (
    "score",
    "status",
    "reason",
    "scored",
    "unscoreable",
    "gated",
    "grader_error",
    "judge_error",
    "unreachable",
    "no_rubric",
    "renders",
    "blank",
    "cached",
    "judge_calls",
    "render_ms",
)

_FAULT_REASONS = {"judge_error", "scorer_error", "cache_error", "infra_error"}
_warned_no_components = []


def fault_score():
    raw = os.environ.get("RUBRICA_FAULT_SCORE", "").strip()
    try:
        return float(raw) if raw else 0.0
    except ValueError:
        raise RubricaError(f"RUBRICA_FAULT_SCORE={raw!r} is not a number") from None


def is_fault(result):
    """The server's one test of a grader fault (src/core/status.ts isGraderFaultRecord)."""
    return result.get("status") == "grader_error" or result.get("reason") in _FAULT_REASONS


def check_kind(result, kind):
    """A record of another reward kind than the adapter's is a configuration error, said at once."""
    got = result.get("reward_kind")
    if got is not None and got != kind:
        raise RubricaError(
            f"rubrica scored this rollout with reward {got!r}, but the adapter is configured for {kind!r} "
            f"(component keys {', '.join(component_keys(kind))}). Set RUBRICA_REWARD={got} (or the adapter's "
            f"`reward` argument), or have the service compute {kind!r}."
        )


def _components(result, kind):
    keys = component_keys(kind)
    comps = result.get("components")
    if comps is None:
        # A service from before reward components: say so once, and give NaN (not a made-up 0).
        if not _warned_no_components:
            _warned_no_components.append(True)
            sys.stderr.write("rubrica: the service sends no reward components; comp_* fields are NaN\n")
        return {k: math.nan for k in keys}
    if not isinstance(comps, dict) or set(comps) != set(keys):
        raise RubricaError(
            f"rubrica sent components {sorted(comps) if isinstance(comps, dict) else comps!r} for reward "
            f"{kind!r}; the contract is {list(keys)}"
        )
    return {k: float(comps[k]) for k in keys}


def impute_faults(results, kind):
    """Attach to each grader fault the means of its measured group-mates in `results`."""
    groups = {}
    for r in results:
        check_kind(r, kind)
        # A gated rollout's 0 is a measurement of the policy: it is a group-mate like an ok one.
        if r.get("status") in ("ok", "gated"):
            key = (r.get("group") or {}).get("key", r.get("prompt_id"))
            groups.setdefault(key, []).append(r)
    for r in results:
        if not is_fault(r):
            continue
        mates = groups.get((r.get("group") or {}).get("key", r.get("prompt_id")))
        if not mates:
            continue
        comps = [_components(m, kind) for m in mates]
        r["_imputed"] = {
            "score": sum(float(m["reward"]) for m in mates) / len(mates),
            "components": {k: sum(c[k] for c in comps) / len(comps) for k in component_keys(kind)},
        }
    return results


def flat_fields(result, kind):
    """The flat fields (BASE_FIELDS + comp_<key>) of one /v1/rewards result."""
    check_kind(result, kind)
    checks = result.get("checks") or {}
    fault = is_fault(result)
    comps = _components(result, kind)
    score = float(result.get("reward") or 0.0)
    if fault:
        imputed = result.get("_imputed")
        if imputed:
            score, comps = imputed["score"], dict(imputed["components"])
        else:
            score, comps = fault_score(), {k: 0.0 for k in comps}
    usage = result.get("usage") or {}
    out = {
        "score": score,
        "status": str(result.get("status") or ""),
        "reason": str(result.get("reason") or ""),
        "scored": int(result.get("status") == "ok"),
        "unscoreable": int(result.get("status") == "unscoreable"),
        "gated": int(result.get("status") == "gated"),
        "grader_error": int(fault),
        "judge_error": int(result.get("reason") == "judge_error"),
        "unreachable": 0,
        "no_rubric": int(result.get("reason") == "no_rubric"),
        "renders": int(bool(checks.get("renders"))),
        "blank": int(bool(checks.get("blank"))),
        "cached": int(bool(result.get("cached"))),
        "judge_calls": int(usage.get("calls") or 0),
        "render_ms": float(result.get("render_ms") or 0.0),
    }
    for k, v in comps.items():
        out["comp_" + k] = v
    return out


def fault_fields(kind, reason="unreachable"):
    """The same fields for a rollout the service never answered (unreachable after retries)."""
    out = {f: 0 for f in BASE_FIELDS}
    out.update(score=fault_score(), status="grader_error", reason=reason, grader_error=1, render_ms=0.0)
    out["unreachable"] = int(reason == "unreachable")
    for k in component_keys(kind):
        out["comp_" + k] = 0.0
    return out
