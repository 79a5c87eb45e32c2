"""TRL reward function backed by the rubrica reward service (standard library only).

    from rubrica.trl import rubrica_reward        # (or: from rubrica_trl import rubrica_reward)
    trainer = GRPOTrainer(model=..., reward_funcs=[rubrica_reward], train_dataset=ds, ...)

`rubrica_reward(prompts, completions, **kwargs) -> list[float | None]`:
  * prompts / completions may be plain strings (standard format) or chat message lists
    (conversational format: the completion's assistant text and the prompt's last user
    text are used);
  * the rubric is found by a `prompt_id` (or `rubric_id`) dataset column, which TRL passes
    as a keyword argument, else by the prompt text;
  * a bad drawing (no SVG, truncated, does not render, blank) scores 0 — it is the policy's
    fault; a rollout that could not be judged (judge error, no rubric, scorer error) is None,
    TRL's "this reward function does not apply", so it never teaches the policy anything.
Configure with RUBRICA_URL / RUBRICA_TOKEN (see rubrica.client). A service that cannot be
reached raises RubricaUnavailable rather than returning zeros.
"""

from rubrica.client import RubricaError, RubricaUnavailable, default_client

__all__ = ["rubrica_reward", "reward_func", "RubricaError", "RubricaUnavailable", "NOT_THE_POLICYS_FAULT"]

# Reasons that say nothing about the drawing: the reward is None, not 0. The grader faults
# (status "grader_error") and a prompt with no rubric, which is the dataset's fault.
NOT_THE_POLICYS_FAULT = {"judge_error", "scorer_error", "cache_error", "infra_error", "no_rubric"}


def _reward_or_none(result):
    if result.get("status") == "grader_error" or result.get("reason") in NOT_THE_POLICYS_FAULT:
        return None
    return float(result["reward"])


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


def rubrica_reward(prompts, completions, **kwargs):
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
    client = kwargs.get("rubrica_client") or default_client()
    results = []
    step = max(1, client.batch)
    for start in range(0, n, step):
        answer = client.post("/v1/rewards", {"items": items[start : start + step]})
        results.extend(answer["results"])
    if len(results) != n:
        raise RubricaError(f"rubrica answered {len(results)} results for {n} completions")
    return [_reward_or_none(r) for r in results]


# TRL logs each reward function under its __name__.
reward_func = rubrica_reward
