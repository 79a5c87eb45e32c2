"""verl reward functions backed by the rubrica reward service (standard library only).

verl's reward loop (verl/experimental/reward_loop; the only path after verl removed the batch
reward manager in February 2026, PRs #5237/#5255) calls the reward function once per sample,
awaiting it when it is `async def` (a sync one runs in a thread pool), with
data_source, solution_str, ground_truth, extra_info (and, with a reward model router,
reward_router_address / reward_model_tokenizer), plus custom_reward_function.reward_kwargs.

    reward.custom_reward_function.path=pkg://rubrica.verl
    reward.custom_reward_function.name=compute_score          # verl's default name

`compute_score` is async. Calls that arrive within RUBRICA_WINDOW_MS (default 5 ms) of each
other in one worker process leave as one POST /v1/rewards over a pooled keep-alive connection
(rubrica.batcher, rubrica.connection), so a GRPO group reaches the service together.

Each call returns a dict with ALWAYS the same keys (rubrica.records.BASE_FIELDS plus
comp_<key> for the configured reward kind's components): verl builds the batch's
reward_extra_info from the first sample's keys, so a sample with other keys would fail the
step. Per-criterion `crit_<key>` values are NOT returned: they differ from rubric to rubric.
The reward kind (hence the comp_ keys) is the `reward` keyword (reward_kwargs) or
RUBRICA_REWARD, default "ruler"; a record of another kind is a RubricaError on the first call.

Faults (rubrica.records): a grader fault gets its measured group-mates' mean and
grader_error=1; a service unreachable after retries and RUBRICA_DEADLINE gets
RUBRICA_FAULT_SCORE (default 0.0) with grader_error=1 and unreachable=1 — or raises
RubricaUnavailable with RUBRICA_ON_UNREACHABLE=raise. A refused request (401: wrong token,
400) always raises: no retry fixes configuration.

verl's BatchRewardManager (`reward_model.reward_manager=batch`: v0.6.1 and older, or v0.7.0
with `reward_model.use_reward_loop=False`; removed in February 2026):
    custom_reward_function.name=compute_score_batch           # sync, the plural form
Older per-sample managers that call the function synchronously: compute_score_sync.
verl v0.7.0's reward loop (the default there) takes compute_score with the legacy keys
custom_reward_function.path=pkg://rubrica.verl.
"""

import asyncio
import itertools
import os

from rubrica.batcher import batcher_for
from rubrica.client import RubricaError, RubricaUnavailable, default_client
from rubrica.components import configured_kind
from rubrica.records import fault_fields, flat_fields, impute_faults

__all__ = ["compute_score", "compute_score_sync", "compute_score_batch", "RubricaError", "RubricaUnavailable"]

_ids = itertools.count()


def _item(solution_str, ground_truth, extra_info):
    extra = extra_info if isinstance(extra_info, dict) else {}
    prompt = extra.get("prompt")
    gt = ground_truth.item() if hasattr(ground_truth, "item") else ground_truth
    return {
        "id": f"verl-{os.getpid()}-{next(_ids)}",
        "prompt_id": None if gt is None or gt == "" else str(gt),
        "prompt": prompt if isinstance(prompt, str) else None,
        "completion": solution_str if isinstance(solution_str, str) else str(solution_str),
    }


def _on_unreachable(kind, err):
    if (os.environ.get("RUBRICA_ON_UNREACHABLE") or "fault").strip() == "raise":
        raise err
    return fault_fields(kind)


def _setup(reward, client):
    kind, explicit = configured_kind(reward)
    client = client or default_client()
    return kind, batcher_for(client, kind, kind if explicit else None)


async def compute_score(
    data_source=None, solution_str=None, ground_truth=None, extra_info=None, reward=None, client=None, **kwargs
):
    """verl reward-loop function: one sample in, one dict out (fixed keys). See the module doc."""
    if solution_str is None:
        raise RubricaError(
            "compute_score needs solution_str; for verl's legacy batch manager use compute_score_batch"
        )
    kind, batcher = _setup(reward, client)
    try:
        result = await asyncio.wrap_future(batcher.submit(_item(solution_str, ground_truth, extra_info)))
    except RubricaUnavailable as err:
        return _on_unreachable(kind, err)
    return flat_fields(result, kind)


def compute_score_sync(
    data_source=None, solution_str=None, ground_truth=None, extra_info=None, reward=None, client=None, **kwargs
):
    """The same as compute_score for callers that cannot await (calls still micro-batch)."""
    kind, batcher = _setup(reward, client)
    try:
        result = batcher.submit(_item(solution_str, ground_truth, extra_info)).result()
    except RubricaUnavailable as err:
        return _on_unreachable(kind, err)
    return flat_fields(result, kind)


def compute_score_batch(
    data_sources=None, solution_strs=None, ground_truths=None, extra_infos=None, reward=None, client=None, **kwargs
):
    """verl < Feb 2026 BatchRewardManager form: lists in, a list of dicts (fixed keys) out."""
    solutions = list(solution_strs or [])
    n = len(solutions)
    gts = list(ground_truths) if ground_truths is not None else [None] * n
    extras = list(extra_infos) if extra_infos is not None else [None] * n
    if len(gts) != n or len(extras) != n:
        raise RubricaError(f"expected {n} ground truths and extra infos, got {len(gts)} and {len(extras)}")
    kind, explicit = configured_kind(reward)
    client = client or default_client()
    items = [_item(s, g, e) for s, g, e in zip(solutions, gts, extras)]
    try:
        results = impute_faults(client.score_items(items, reward=kind if explicit else None), kind)
    except RubricaUnavailable as err:
        return [_on_unreachable(kind, err) for _ in items]
    return [flat_fields(r, kind) for r in results]
