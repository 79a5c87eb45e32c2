"""OpenRLHF reward function backed by the rubrica reward service (standard library only).

Two ways to wire rubrica into OpenRLHF:

1. Straight to the service (no Python file): start `rubrica serve` and pass
       --remote_rm_url http://HOST:8787/v1/openrlhf
   (newer OpenRLHF versions spell it --reward.remote_url). OpenRLHF posts
   {"query": [...], "prompts": [...], "labels": [...]} and reads {"rewards", "scores",
   "extra_logs"}. The server cuts each response out of its query (the templated prompt is
   removed, trailing <|im_end|>/<|endoftext|>-style tokens dropped) and finds the rubric by
   label (the rubric id; put it in your dataset's label column, e.g. --label_key prompt_id),
   else by the user's text inside the templated prompt. A bearer token cannot be set this
   way: run the server without --token on a private network, or use form 2.

2. Through a file: pass  --remote_rm_url "$(python3 -m rubrica path openrlhf)"
   (the absolute path of the installed rubrica_openrlhf.py, which re-exports this module's
   reward_func). OpenRLHF loads `reward_func(queries, prompts, labels)` from it. This form reads
   RUBRICA_URL / RUBRICA_TOKEN, retries transient failures and raises RubricaUnavailable
   when the service is down (never a silent 0).

The returned dict holds "rewards" and "scores" (both the rubric reward, 0 for a rollout
that could not be scored) and "extra_logs" (scored, judge_error, no_rubric, renders, blank,
cached, judge_calls per rollout). Values are torch tensors when torch is importable (as
OpenRLHF's own examples return), plain lists otherwise.
"""

from rubrica.client import RubricaError, RubricaUnavailable, default_client

__all__ = ["reward_func", "RubricaError", "RubricaUnavailable"]


def _to_tensor(values):
    try:
        import torch  # optional: OpenRLHF always has it, plain Python tests do not
    except ImportError:
        return values
    return torch.tensor(values, dtype=torch.float32)


def reward_func(queries, prompts, labels, client=None):
    queries = list(queries)
    n = len(queries)
    lists = {"query": queries}
    if prompts is not None:
        lists["prompts"] = list(prompts)
    if labels is not None:
        lists["labels"] = [None if lab is None else str(lab) for lab in labels]
    rewards, scores, extra = [], [], {}
    for answer in (client or default_client()).post_batched("/v1/openrlhf", lists):
        rewards.extend(answer["rewards"])
        scores.extend(answer["scores"])
        for key, values in answer.get("extra_logs", {}).items():
            extra.setdefault(key, []).extend(values)
    if len(rewards) != n:
        raise RubricaError(f"rubrica answered {len(rewards)} rewards for {n} queries")
    return {
        "rewards": _to_tensor(rewards),
        "scores": _to_tensor(scores),
        "extra_logs": {k: _to_tensor(v) for k, v in extra.items()},
    }
