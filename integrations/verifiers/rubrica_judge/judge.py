"""RubricaJudge: a verifiers judge plugin whose verdict is rubrica's reward for the rollout.

How verifiers runs it (PrimeIntellect-ai/verifiers v0.2.0, commit 6c64ce6):
  * verifiers/v1/task.py `Task.score`: every judge plugged through `--taskset.task.judges` is
    built by verifiers/v1/loaders.py `load_judge` (`cls(config)`) and its `score(task=, trace=)`
    awaited after the task's own rewards, inside `boundary(TaskError, ...)`: an exception marks
    the rollout errored (and prime-rl masks errored rollouts out of training, PRs #1416, #1448).
    A `score` with a required `runtime` parameter is skipped when scoring runs without one, so
    this one takes none.
  * `_record_result`: a float is recorded with `trace.record_reward(reward_name, value,
    config.weight)`; a Mapping would record EVERY key as a weighted reward, so rubrica's
    components (which sum to the reward) go to `trace.record_metric` instead and score returns
    the float alone — they are logged, never added to the reward a second time.
  * verifiers/v1/trace.py: `trace.last_reply` (the final assistant text) and `trace.transcript`;
    verifiers/v1/task.py `TaskData.prompt_text`.

Outcome mapping (rubrica's result `status` / `reason`, src/core/status.ts):
  ok            -> the reward (components as metrics `rubrica_<key>`)
  unscoreable   -> 0.0: the policy's output could not be scored (no code block, render error...)
                   — a real measurement of the policy, so it is trained on
  grader fault  -> raise RubricaGraderFault: the judge/scorer/cache/infrastructure failed; a 0
                   here would train the policy against the grader's outages
  unreachable   -> raise RubricaUnreachable (after retries); refused request -> RubricaServiceError
"""

import asyncio
import math
import os

from rubrica_judge.base import Judge, JudgeConfig
from rubrica_judge.service import RubricaGraderFault, RubricaServiceError, post_rewards

__all__ = ["RubricaJudge", "RubricaJudgeConfig", "FAULT_REASONS"]

# The reasons that blame the grader, as src/core/status.ts GraderFaultSchema lists them.
FAULT_REASONS = frozenset({"judge_error", "scorer_error", "cache_error", "infra_error"})


class RubricaJudgeConfig(JudgeConfig):
    """Where rubrica runs and how a rollout becomes a /v1/rewards item.

    Field names avoid JudgeConfig's client fields (base_url, api_key_var, headers, model, ...),
    which are about an LLM endpoint this judge never calls itself.
    """

    rubrica_url: str = ""
    """Base URL of `rubrica serve`; empty reads RUBRICA_URL, else http://127.0.0.1:8787."""
    token_var: str = "RUBRICA_TOKEN"
    """Environment variable holding the bearer token (kept out of config files and logs)."""
    reward: str = ""
    """rubrica reward kind to compute ("ruler", "universal", ...); empty = the server's default."""
    prompt_id_field: str = "prompt_id"
    """Task field naming the rubric; without it rubrica finds the rubric by the prompt's text."""
    view: str = "last_reply"
    """"last_reply" sends the final assistant message, "full_trace" the whole transcript."""
    request_timeout: float = 900.0
    retries: int = 3
    deadline: float = 1800.0


class RubricaJudge(Judge[float, RubricaJudgeConfig]):
    """Scores a rollout with rubrica; raises instead of inventing a score on any fault."""

    def rollout_item(self, task, trace):
        """The /v1/rewards item for one rollout."""
        field = self.config.prompt_id_field
        prompt_id = getattr(task, field, None) if field else None
        completion = trace.transcript if self.config.view == "full_trace" else trace.last_reply
        return {
            "id": "verifiers-0",
            "prompt_id": None if prompt_id is None else str(prompt_id),
            "prompt": getattr(task, "prompt_text", None),
            "completion": completion,
        }

    def _post(self, body):
        url = self.config.rubrica_url or os.environ.get("RUBRICA_URL") or "http://127.0.0.1:8787"
        token = os.environ.get(self.config.token_var) if self.config.token_var else None
        return post_rewards(
            url.split(",")[0].strip(),
            token,
            body,
            timeout=self.config.request_timeout,
            retries=self.config.retries,
            deadline=self.config.deadline,
        )

    async def score(self, task, trace):
        body = {"items": [self.rollout_item(task, trace)]}
        if self.config.reward:
            body["reward"] = self.config.reward
        # urllib blocks: run it off the event loop, which scores many rollouts concurrently.
        answer = await asyncio.to_thread(self._post, body)
        results = answer.get("results") if isinstance(answer, dict) else None
        if not isinstance(results, list) or len(results) != 1 or not isinstance(results[0], dict):
            raise RubricaServiceError(f"rubrica /v1/rewards answered no single result: {str(answer)[:300]}")
        return self.outcome(results[0], trace)

    def outcome(self, result, trace):
        """The float to return for one rubrica result, its metrics recorded on `trace`."""
        status, reason = result.get("status"), result.get("reason")
        if status == "grader_error" or reason in FAULT_REASONS:
            raise RubricaGraderFault(f"rubrica grader fault ({reason or status}) on this rollout: not a score", result)
        if status == "unscoreable":
            _metric(trace, "rubrica_unscoreable", 1.0)
            return 0.0
        if status != "ok":
            raise RubricaServiceError(f"rubrica answered an unknown status {status!r}")
        reward = result.get("reward")
        if not isinstance(reward, (int, float)) or isinstance(reward, bool) or not math.isfinite(reward):
            raise RubricaServiceError(f"rubrica answered status ok with reward {reward!r}")
        _metric(trace, "rubrica_unscoreable", 0.0)
        for key, value in sorted((result.get("components") or {}).items()):
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                _metric(trace, f"rubrica_{key}", float(value))
        return float(reward)


def _metric(trace, name, value):
    # verifiers' Trace has record_metric; a caller scoring without a Trace gets the float alone.
    record = getattr(trace, "record_metric", None)
    if record is not None:
        record(name, value)
