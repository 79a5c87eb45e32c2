"""TRL reward functions backed by the rubrica reward service (standard library only).

    from rubrica.trl import rubrica_reward                 # sync
    from rubrica.trl import rubrica_reward_async           # async: TRL gathers async functions
    trainer = GRPOTrainer(model=..., reward_funcs=[rubrica_reward], train_dataset=ds, ...)

GRPOTrainer (trl/trainer/grpo_trainer.py) calls each reward function once per generation batch
with prompts=, completions=, completion_ids=, every other dataset column as a keyword list,
trainer_state=, log_extra=, log_metric= (TRL >= 1.0, PR #5233) and environments= when set;
async functions are awaited together on the trainer's event loop. AsyncGRPOTrainer
(trl/experimental/async_grpo) calls them once per GRPO group, in a spawned rollout process
(so they must pickle by reference: these are module-level), with the group's prompts,
completions, completion_ids and dataset columns only.

`rubrica_reward(prompts, completions, **kwargs) -> list[float | None]`:
  * prompts / completions are strings or chat message lists (the completion's assistant text,
    the prompt's last user text are used);
  * the rubric is found by a `prompt_id` (or `rubric_id`) dataset column, else by prompt text;
  * a bad drawing (no code, truncated, does not render, blank) scores 0 — it is the policy's
    fault; a grader fault (judge, scorer, cache, infra error), a prompt with no rubric and a
    service unreachable after retries are None. TRL >= 1.6.0 (PR #5902) leaves a row whose
    reward functions all returned None out of the group baseline, with advantage 0. Older TRL
    sums None as 0 (nansum) — there set RUBRICA_TRL_FAULT=mean (the mean of the measured
    rollouts of its group in the same call: its advantage is then ~0) or a number;
  * when TRL passes `log_extra`, the columns rubrica_status, rubrica_reason, comp_<key> and
    rubrica_criteria (per-criterion scores as JSON) go to the completions table;
    `log_metric` gets rubrica/grader_error_share.

GDPO (TRL >= 0.27, PR #4785; GRPOConfig(multi_objective_aggregation="normalize_then_sum")):
`component_rewards(kind)` gives one reward function per component of the reward kind
(rubrica.components), named rubrica_<key>, which sum to the reward; they share one request
per batch. Configure with RUBRICA_URL / RUBRICA_TOKEN (rubrica.client).

`ors_reward` (rubrica.ors) is the reward function for TRL's environment_factory with
OpenRewardSpec against `rubrica serve --ors`: None for a grader fault, never a silent 0.0.
"""

import asyncio
import concurrent.futures
import hashlib
import json
import os
import threading

from rubrica.client import RubricaError, RubricaUnavailable, default_client
from rubrica.components import component_keys, configured_kind
from rubrica.ors import ors_reward
from rubrica.records import check_kind, impute_faults, is_fault

__all__ = [
    "rubrica_reward",
    "rubrica_reward_async",
    "reward_func",
    "component_rewards",
    "ComponentReward",
    "RubricaError",
    "RubricaUnavailable",
    "NOT_THE_POLICYS_FAULT",
    "ors_reward",
]

# Reasons that say nothing about the drawing: the reward is None, not 0. The grader faults
# (status "grader_error") and a prompt with no rubric, which is the dataset's fault.
NOT_THE_POLICYS_FAULT = {"judge_error", "scorer_error", "cache_error", "infra_error", "no_rubric"}


def _fault_policy():
    raw = (os.environ.get("RUBRICA_TRL_FAULT") or "none").strip().lower()
    if raw in ("none", "mean"):
        return raw
    try:
        return float(raw)
    except ValueError:
        raise RubricaError(f"RUBRICA_TRL_FAULT={raw!r}: expected none, mean or a number") from None


def _is_none_case(result):
    return is_fault(result) or result.get("reason") in NOT_THE_POLICYS_FAULT


def _reward_or_none(result, policy="none"):
    if not _is_none_case(result):
        return float(result["reward"])
    if policy == "none":
        return None
    if policy == "mean":
        imputed = result.get("_imputed")
        return imputed["score"] if imputed else None
    return float(policy)


def _content_text(content):
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # multimodal content parts
        return "".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type", "text") == "text")
    return "" if content is None else str(content)


def _message_text(value, role):
    """Text of a string, or of the last message with `role` in a chat message list."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return _content_text(value.get("content"))
    if isinstance(value, (list, tuple)):
        for msg in reversed(list(value)):
            if isinstance(msg, dict) and msg.get("role") == role:
                return _content_text(msg.get("content"))
        # No message with that role: join what is there (a completion of several parts).
        return "".join(_content_text(m.get("content")) for m in value if isinstance(m, dict))
    return "" if value is None else str(value)


def _items(prompts, completions, kwargs):
    completions = list(completions)
    n = len(completions)
    prompts = list(prompts) if prompts is not None else [None] * n
    ids = kwargs.get("prompt_id") or kwargs.get("rubric_id") or [None] * n
    items = []
    for i, completion in enumerate(completions):
        prompt = prompts[i] if i < len(prompts) else None
        pid = ids[i] if i < len(ids) else None
        items.append(
            {
                "id": f"trl-{i}",
                "prompt_id": None if pid is None else str(pid),
                "prompt": None if prompt is None else _message_text(prompt, "user"),
                "completion": _message_text(completion, "assistant"),
            }
        )
    return items


def _score(items, kind, explicit, client):
    """Results for items; an unreachable service gives None results (grader faults)."""
    try:
        results = client.score_items(items, reward=kind if explicit else None)
    except RubricaUnavailable:
        return [None] * len(items)
    return impute_faults(results, kind)


def _log(kwargs, results, kind):
    log_extra, log_metric = kwargs.get("log_extra"), kwargs.get("log_metric")
    if callable(log_extra):
        log_extra("rubrica_status", [r["status"] if r else "grader_error" for r in results])
        log_extra("rubrica_reason", [(r.get("reason") or "") if r else "unreachable" for r in results])
        for key in component_keys(kind):
            log_extra("comp_" + key, [_component(r, key, "none") for r in results])
        # One column for every criterion: TRL gathers columns across ranks in sorted order, so
        # a column per criterion key (they differ per rubric, hence per rank) would not line up.
        log_extra("rubrica_criteria", [_criteria_json(r) for r in results])
    if callable(log_metric) and results:
        faults = sum(1 for r in results if r is None or is_fault(r))
        log_metric("rubrica/grader_error_share", faults / len(results))


def _criteria_json(result):
    leaves = (result or {}).get("criteria") or []
    return json.dumps({c["key"]: c.get("score") for c in leaves if isinstance(c, dict) and "key" in c})


def _rewards(prompts, completions, kwargs):
    kind, explicit = configured_kind(kwargs.get("reward"))
    client = kwargs.get("rubrica_client") or default_client()
    items = _items(prompts, completions, kwargs)
    results = _score(items, kind, explicit, client) if items else []
    _log(kwargs, results, kind)
    policy = _fault_policy()
    return [_unreachable_value(policy) if r is None else _reward_or_none(r, policy) for r in results]


def _unreachable_value(policy):
    return None if policy in ("none", "mean") else float(policy)


def rubrica_reward(prompts, completions, **kwargs):
    """Sync TRL reward function: a float per completion, None where the grader failed."""
    return _rewards(prompts, completions, kwargs)


async def rubrica_reward_async(prompts, completions, **kwargs):
    """Async TRL reward function: the request runs on a thread, the event loop stays free."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, lambda: _rewards(prompts, completions, kwargs))


# TRL logs each reward function under its __name__.
reward_func = rubrica_reward


# ---- one reward function per component (GDPO) ----------------------------------------------

_shared = {}
_shared_lock = threading.Lock()


def _batch_key(kind, items):
    raw = json.dumps([kind, items], sort_keys=True).encode("utf-8")
    return hashlib.sha256(raw).hexdigest()


def _shared_results(kind, explicit, items, client):
    """Score a batch once for all component functions called with the same batch."""
    key = _batch_key(kind, items)
    with _shared_lock:
        fut = _shared.get(key)
        owner = fut is None
        if owner:
            fut = _shared[key] = concurrent.futures.Future()
            while len(_shared) > 8:  # keep the last few batches only
                _shared.pop(next(iter(_shared)))
    if owner:
        try:
            fut.set_result(_score(items, kind, explicit, client))
        except BaseException as err:
            fut.set_exception(err)
    return fut.result()


def _component(result, key, policy):
    if result is None:
        return _unreachable_value(policy)
    if _is_none_case(result):
        if policy == "none":
            return None
        imputed = result.get("_imputed")
        if policy == "mean":
            return imputed["components"][key] if imputed else None
        return 0.0  # a fixed fallback goes to the summed reward; components stay 0
    comps = result.get("components")
    if comps is None:
        return float("nan")
    return float(comps[key])


class ComponentReward:
    """One component of a reward kind as a TRL reward function (picklable by reference).

    Sync on purpose: TRL detects async functions with inspect.iscoroutinefunction, which
    does not see through an instance's async __call__; AsyncGRPOTrainer runs sync functions
    in a thread (asyncio.to_thread), GRPOTrainer calls them in turn, and the second and later
    components of a batch reuse the first one's answer.
    """

    def __init__(self, kind, key):
        if key not in component_keys(kind):
            raise ValueError(f"{key!r} is not a component of {kind!r}: {component_keys(kind)}")
        self.kind = kind
        self.key = key
        self.__name__ = "rubrica_" + key

    def __call__(self, prompts, completions, **kwargs):
        client = kwargs.get("rubrica_client") or default_client()
        items = _items(prompts, completions, kwargs)
        results = _shared_results(self.kind, True, items, client) if items else []
        for r in results:
            if r is not None:
                check_kind(r, self.kind)
        if self.key == component_keys(self.kind)[0]:
            _log(kwargs, results, self.kind)  # once per batch, by the first component
        policy = _fault_policy()
        return [_component(r, self.key, policy) for r in results]

    def __repr__(self):
        return f"ComponentReward({self.kind!r}, {self.key!r})"


def component_rewards(kind=None):
    """One TRL reward function per component of `kind` (default RUBRICA_REWARD or ruler)."""
    kind, _ = configured_kind(kind)
    return [ComponentReward(kind, key) for key in component_keys(kind)]
