"""RubricaJudge against a real `rubrica serve` (loopback, judge double), as verifiers calls it.

Written from PrimeIntellect-ai/verifiers v0.2.0, commit 6c64ce6 (verifiers is not installed
here, so nothing below imports it):
  * verifiers/v1/task.py Task.score awaits `judge.score(task=..., trace=...)` inside
    `boundary(TaskError, ...)`: a raised error marks the rollout errored (prime-rl then masks
    it, PRs #1416 and #1448); a returned float is recorded as the judge's weighted reward.
  * verifiers/v1/judges/reference.py: the built-in judge's rule, "judge API or parsing failures
    raise so the sample can be retried instead of being scored against the model".
The cases: ok (the reward, components as metrics), unscoreable (0.0), grader fault (raised),
unreachable service (raised within the deadline), a refused token (raised), and concurrent
rollouts on one event loop.
"""

import asyncio
import json
import math
import os
import time
import unittest
import urllib.request

from support import TaskDouble, TraceDouble, closed_port, stack

from rubrica_judge import (
    RubricaGraderFault,
    RubricaJudge,
    RubricaJudgeConfig,
    RubricaServiceError,
    RubricaUnreachable,
)


def fenced(svg):
    return "Here it is:\n```svg\n" + svg + "\n```"


def direct(info, prompt_id, completion):
    """The /v1/rewards result for one item, fetched without the judge (what it must agree with)."""
    body = json.dumps({"items": [{"id": "direct", "prompt_id": prompt_id, "completion": completion}]}).encode()
    req = urllib.request.Request(
        info["url"] + "/v1/rewards",
        data=body,
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {info['token']}"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=120) as answer:
        return json.loads(answer.read())["results"][0]


class RubricaJudgeLive(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.stack = stack()
        cls.info = cls.stack.INFO
        with open(cls.info["svgA"], encoding="utf-8") as f:
            cls.svg = f.read()

    def judge(self, **overrides):
        values = {"rubrica_url": self.info["url"], "retries": 1, "deadline": 120.0}
        values.update(overrides)
        return RubricaJudge(RubricaJudgeConfig(**values))

    def test_ok_returns_the_reward_and_records_components_as_metrics(self):
        trace = TraceDouble(fenced(self.svg))
        reward = asyncio.run(self.judge().score(TaskDouble("Draw a red fox", "fox"), trace))
        expected = direct(self.info, "fox", fenced(self.svg))
        self.assertEqual(expected["status"], "ok")
        self.assertIsInstance(reward, float)
        self.assertAlmostEqual(reward, float(expected["reward"]), places=9)
        components = {k[len("rubrica_") :]: v for k, v in trace.metrics.items() if k != "rubrica_unscoreable"}
        self.assertEqual(set(components), set(expected["components"]))
        self.assertGreater(len(components), 0)
        # rubrica's components sum to its reward: logging them as rewards would count it twice.
        self.assertAlmostEqual(sum(components.values()), reward, places=6)
        self.assertEqual(trace.metrics["rubrica_unscoreable"], 0.0)

    def test_unscoreable_output_scores_zero(self):
        reply = "I would rather describe the fox in words than draw it."
        expected = direct(self.info, "fox", reply)
        self.assertEqual(expected["status"], "unscoreable")
        trace = TraceDouble(reply)
        reward = asyncio.run(self.judge().score(TaskDouble("Draw a red fox", "fox"), trace))
        self.assertEqual(reward, 0.0)
        self.assertEqual(trace.metrics["rubrica_unscoreable"], 1.0)

    def test_grader_fault_is_raised_not_scored(self):
        trace = TraceDouble(fenced(self.svg))
        with self.assertRaises(RubricaGraderFault) as caught:
            asyncio.run(self.judge().score(TaskDouble("JUDGE_FAILS on this prompt", "fail"), trace))
        self.assertEqual(caught.exception.result.get("reason"), "judge_error")
        self.assertNotIn("rubrica_unscoreable", trace.metrics)

    def test_unreachable_service_is_raised_within_the_deadline(self):
        judge = self.judge(rubrica_url=f"http://127.0.0.1:{closed_port()}", retries=2, deadline=20.0)
        started = time.monotonic()
        with self.assertRaises(RubricaUnreachable):
            asyncio.run(judge.score(TaskDouble("Draw a red fox", "fox"), TraceDouble(fenced(self.svg))))
        self.assertLess(time.monotonic() - started, 20.0)

    def test_a_refused_token_is_raised_at_once(self):
        os.environ["RUBRICA_JUDGE_TEST_WRONG_TOKEN"] = "not-the-token"
        judge = self.judge(token_var="RUBRICA_JUDGE_TEST_WRONG_TOKEN")
        with self.assertRaises(RubricaServiceError) as caught:
            asyncio.run(judge.score(TaskDouble("Draw a red fox", "fox"), TraceDouble(fenced(self.svg))))
        self.assertEqual(caught.exception.status, 401)

    def test_rollouts_scored_concurrently_on_one_loop(self):
        # verifiers gathers judge calls of many rollouts on one event loop: each must get its own
        # outcome (an unscoreable rollout beside a measured one), and a fault must not leak.
        judge = self.judge()
        task = TaskDouble("Draw a red fox", "fox")

        async def run():
            return await asyncio.gather(
                judge.score(task, TraceDouble(fenced(self.svg))),
                judge.score(task, TraceDouble("no drawing")),
                judge.score(TaskDouble("JUDGE_FAILS on this prompt", "fail"), TraceDouble(fenced(self.svg))),
                return_exceptions=True,
            )

        ok, unscoreable, fault = asyncio.run(run())
        self.assertTrue(isinstance(ok, float) and math.isfinite(ok) and ok > 0.0, ok)
        self.assertEqual(unscoreable, 0.0)
        self.assertIsInstance(fault, RubricaGraderFault)

    def test_without_a_prompt_id_the_rubric_is_found_by_prompt_text(self):
        reward = asyncio.run(self.judge().score(TaskDouble("a red fox"), TraceDouble(fenced(self.svg))))
        self.assertAlmostEqual(reward, float(direct(self.info, "fox", fenced(self.svg))["reward"]), places=9)


if __name__ == "__main__":
    unittest.main()
