"""verl reward function backed by the rubrica reward service (standard library only).

Install the package where verl's workers run (`pip install integrations/python`), then name
the function by module (verl versions that read `pkg://`) or by file (any verl version):

    custom_reward_function.path=pkg://rubrica.verl
    custom_reward_function.path=$(python3 -m rubrica path verl)   # absolute path of rubrica_verl.py
    custom_reward_function.name=compute_score
    reward_model.reward_manager=batch      # one HTTP request per training batch (recommended)

The rubric id travels as `reward_model.ground_truth` (what `rubrica export verl` writes);
`extra_info.prompt`, when present, lets the server find the rubric by prompt text instead.
Configure with RUBRICA_URL / RUBRICA_TOKEN (see rubrica.client).

Both call forms verl uses are accepted:
  * batch (BatchRewardManager): compute_score(data_sources=, solution_strs=, ground_truths=, extra_infos=)
    -> list of dicts
  * single (NaiveRewardManager and friends): compute_score(data_source, solution_str, ground_truth, extra_info)
    -> one dict

Each dict is verl's dict form: "score" (the reward; 0 for a rollout that could not be
scored) plus flat extras that verl logs as reward_extra_info: status, reason, scored,
judge_error, no_rubric, renders, blank, cached, judge_calls, render_ms and crit_<key> for each
rubric item (None when that rollout has no score for it). Every dict of one batch has the
same keys, as verl requires. A rollout the judge failed on gets score 0 with judge_error=1
(verl has no "unscorable" value); watch that metric. A service that cannot be reached
raises RubricaUnavailable rather than returning zeros.
"""

from rubrica.client import RubricaError, RubricaUnavailable, default_client

__all__ = ["compute_score", "RubricaError", "RubricaUnavailable"]


def _as_list(values, n, fill=None):
    if values is None:
        return [fill] * n
    values = list(values)
    if len(values) != n:
        raise RubricaError(f"expected {n} entries, got {len(values)}")
    return values


def _score_batch(data_sources, solution_strs, ground_truths, extra_infos, client=None):
    client = client or default_client()
    solutions = [s if isinstance(s, str) else str(s) for s in list(solution_strs)]
    n = len(solutions)
    if n == 0:
        return []
    lists = {
        "solution_strs": solutions,
        "data_sources": _as_list(data_sources, n),
        "ground_truths": _as_list(ground_truths, n),
        "extra_infos": [e if isinstance(e, dict) else None for e in _as_list(extra_infos, n)],
    }
    results = []
    for answer in client.post_batched("/v1/verl", lists):
        if not isinstance(answer, list):
            raise RubricaError(f"rubrica /v1/verl answered {type(answer).__name__}, expected a list")
        results.extend(answer)
    if len(results) != n:
        raise RubricaError(f"rubrica answered {len(results)} results for {n} rollouts")
    # Slices are scored separately; make sure every dict still carries the same keys.
    keys = set()
    for r in results:
        keys.update(r.keys())
    for r in results:
        for k in keys:
            r.setdefault(k, None)
    return results


def compute_score(
    data_source=None,
    solution_str=None,
    ground_truth=None,
    extra_info=None,
    data_sources=None,
    solution_strs=None,
    ground_truths=None,
    extra_infos=None,
    **kwargs,
):
    if solution_strs is not None:
        return _score_batch(data_sources, solution_strs, ground_truths, extra_infos)
    if solution_str is None:
        raise RubricaError("compute_score needs solution_str (single) or solution_strs (batch)")
    return _score_batch([data_source], [solution_str], [ground_truth], [extra_info])[0]
