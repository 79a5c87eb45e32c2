"""TRL's GRPOTrainer and AsyncGRPOTrainer, as their source calls reward functions, against a
real `rubrica serve`.

Written from huggingface/trl at commit f2cd57710ae345ea6428ae95363267fcf38a3dc8 (2026-07-24,
main after v1.9.0):
  * trl/trainer/grpo_trainer.py _calculate_rewards: each custom function is called ONCE per
    generation batch with prompts=, completions=, completion_ids=, every other dataset column
    as a list keyword, trainer_state=, log_extra=, log_metric= (PR #5233, since v1.0.0) and
    environments= when set. Sync functions run in turn; `inspect.iscoroutinefunction` ones are
    gathered on the trainer's async loop (asyncio.run_coroutine_threadsafe(..., self.async_loop)).
    None becomes NaN.
  * _generate_and_score_completions: unscorable_mask = rows where EVERY function gave NaN;
    rewards = nansum(weights * rewards_per_func) with those rows set to NaN, the group baseline
    is torch.nanmean / nanstd, and advantages = nan_to_num(..., 0): a None row is left out of
    the baseline with advantage 0 (PR #5902, 1c7c7f98, first in v1.6.0). Before it the row
    summed to 0 (nansum) and counted in the baseline.
  * multi_objective_aggregation="normalize_then_sum" (GDPO, PR #4785, since v0.27.0): each
    function normalised within its group (nanmean / nanstd), then weighted and summed.
  * trl/experimental/async_grpo/async_rollout_worker.py _score_group: per GRPO group, with
    completions=, prompts=, completion_ids= and the group's reward_kwargs (no log_extra);
    async functions awaited, sync ones via asyncio.to_thread, gathered; functions are shipped
    to a spawned process, so they must pickle (module-level names).
"""

import asyncio
import json
import math
import multiprocessing
import os
import pickle
import statistics
import threading
import unittest

import rubrica.client
import rubrica.trl
import stack
from rubrica.components import component_keys
from stack import fenced


def setUpModule():
    stack.start()


def nanmean(xs):
    vals = [x for x in xs if not math.isnan(x)]
    return sum(vals) / len(vals) if vals else math.nan


def nanstd(xs):  # torch's nanstd in TRL: unbiased
    vals = [x for x in xs if not math.isnan(x)]
    return statistics.stdev(vals) if len(vals) > 1 else math.nan


def grpo_advantages(rewards_per_func, num_generations, weights=None):
    """TRL's sum_then_normalize with the None handling of PR #5902 (scale_rewards="group")."""
    weights = weights or [1.0] * len(rewards_per_func[0])
    rewards = []
    for row in rewards_per_func:
        if all(math.isnan(v) for v in row):
            rewards.append(math.nan)  # unscorable_mask
        else:
            rewards.append(sum(w * v for w, v in zip(weights, row) if not math.isnan(v)))
    adv = []
    for g in range(0, len(rewards), num_generations):
        group = rewards[g : g + num_generations]
        mean, std = nanmean(group), nanstd(group)
        for r in group:
            a = (r - mean) / ((0.0 if math.isnan(std) else std) + 1e-4)
            adv.append(0.0 if math.isnan(a) else a)
    return rewards, adv


def trl_batch(svgs, prompts=("fox", "mixed", "fail", "owl"), n=8):
    """A generation batch: n completions per prompt, conversational format, prompt_id column."""
    texts = {"fox": "a red fox", "owl": "an owl at night", "fail": "x", "mixed": "a cat on a mat"}
    ps, cs, ids = [], [], []
    for p, pid in enumerate(prompts):
        for k in range(n):
            ps.append([{"role": "user", "content": texts[pid]}])
            body = "no drawing, sorry" if k == 7 and pid == "fox" else fenced(svgs[(p * 5 + k) % len(svgs)])
            cs.append([{"role": "assistant", "content": body}])
            ids.append(pid)
    return ps, cs, ids


class Logs:
    def __init__(self):
        self.extra, self.metrics = {}, {}

    def log_extra(self, column, values):
        self.extra.setdefault(column, []).extend(values)

    def log_metric(self, name, value):
        self.metrics.setdefault(name, []).append(value)


def call_like_grpo_trainer(func, prompts, completions, ids, logs):
    kwargs = {
        "prompt_id": ids,
        "trainer_state": object(),
        "log_extra": logs.log_extra,
        "log_metric": logs.log_metric,
    }
    completion_ids = [[1, 2, 3]] * len(completions)
    if asyncio.iscoroutinefunction(func):
        loop = asyncio.new_event_loop()  # TRL's self.async_loop runs in its own thread
        thread = threading.Thread(target=loop.run_forever, daemon=True)
        thread.start()
        try:
            coro = func(prompts=prompts, completions=completions, completion_ids=completion_ids, **kwargs)
            return asyncio.run_coroutine_threadsafe(coro, loop).result()
        finally:
            loop.call_soon_threadsafe(loop.stop)
            thread.join()
    return func(prompts=prompts, completions=completions, completion_ids=completion_ids, **kwargs)


class GrpoTrainerContractTest(unittest.TestCase):
    def test_sync_and_async_functions_one_request_per_batch_faults_out_of_the_baseline(self):
        svgs = stack.rollout_svgs()
        prompts, completions, ids = trl_batch(svgs)
        for func in (rubrica.trl.rubrica_reward, rubrica.trl.rubrica_reward_async):
            before = stack.metric("rubrica_http_requests_total", {"route": "/v1/rewards"})
            logs = Logs()
            out = call_like_grpo_trainer(func, prompts, completions, ids, logs)
            self.assertEqual(stack.metric("rubrica_http_requests_total", {"route": "/v1/rewards"}) - before, 1)
            self.assertEqual(len(out), 32)
            statuses = logs.extra["rubrica_status"]
            for r, status, reason in zip(out, statuses, logs.extra["rubrica_reason"]):
                if status == "grader_error" or reason == "no_rubric":
                    self.assertIsNone(r)
                else:
                    self.assertIsInstance(r, float)
            self.assertEqual(out[7], 0.0)  # no drawing: the policy's fault, a real 0
            self.assertTrue(all(r is None for r in out[16:24]))  # "fail": every judge call failed
            mixed = out[8:16]
            self.assertTrue(any(r is None for r in mixed) and any(r is not None for r in mixed))
            rows = [[math.nan if r is None else r] for r in out]
            rewards, adv = grpo_advantages(rows, 8)
            for i, r in enumerate(out):
                if r is None:
                    self.assertEqual(adv[i], 0.0)
            measured = [r for r in mixed if r is not None]
            self.assertAlmostEqual(nanmean(rewards[8:16]), sum(measured) / len(measured))
            for key in component_keys("ruler"):
                self.assertEqual(len(logs.extra["comp_" + key]), 32)
            criteria = [json.loads(c) for c in logs.extra["rubrica_criteria"]]
            self.assertEqual(len(criteria), 32)
            for r, crit in zip(out, criteria):
                if r is not None and r > 0:  # RULER: R = sum(w * s) / sum(w) of these scores
                    self.assertTrue(crit)
                    self.assertTrue(all(0 <= v <= 1 for v in crit.values()))
            # TRL's gather needs the same column names on every rank, whatever the rubrics.
            self.assertEqual(set(logs.extra), {"rubrica_status", "rubrica_reason", "rubrica_criteria"} | {
                "comp_" + k for k in component_keys("ruler")
            })
            self.assertEqual(logs.metrics["rubrica/grader_error_share"], [statuses.count("grader_error") / 32])

    def test_fallbacks_for_trl_before_1_6(self):
        svgs = stack.rollout_svgs()
        prompts, completions, ids = trl_batch(svgs, prompts=("mixed",))
        base = rubrica.trl.rubrica_reward(prompts, completions, prompt_id=ids)
        measured = [r for r in base if r is not None]
        try:
            os.environ["RUBRICA_TRL_FAULT"] = "mean"
            mean = rubrica.trl.rubrica_reward(prompts, completions, prompt_id=ids)
            os.environ["RUBRICA_TRL_FAULT"] = "0.25"
            fixed = rubrica.trl.rubrica_reward(prompts, completions, prompt_id=ids)
        finally:
            del os.environ["RUBRICA_TRL_FAULT"]
        for b, m, f in zip(base, mean, fixed):
            if b is None:
                self.assertAlmostEqual(m, sum(measured) / len(measured), delta=1e-12)
                self.assertEqual(f, 0.25)
            else:
                self.assertEqual((m, f), (b, b))

    def test_unreachable_service_is_none_not_zero(self):
        client = rubrica.client.RubricaClient(url="http://127.0.0.1:9", retries=0)
        out = rubrica.trl.rubrica_reward(["a"], ["b"], rubrica_client=client)
        self.assertEqual(out, [None])

    def test_a_record_of_another_kind_is_a_clear_error(self):
        client = rubrica.client.RubricaClient(url=stack.INFO["urlUniversal"])
        with self.assertRaises(rubrica.trl.RubricaError) as ctx:
            rubrica.trl.rubrica_reward(["a red fox"], ["x"], prompt_id=["fox"], rubrica_client=client)
        self.assertIn("'universal'", str(ctx.exception))


def async_grpo_worker(funcs_pickle, groups, conn):
    """AsyncRolloutWorker._score_group in a spawned process, group after group."""
    funcs = pickle.loads(funcs_pickle)

    async def score_group(group):
        kwargs = dict(completions=group["completions"], prompts=group["prompts"], completion_ids=[[0]] * 8)
        kwargs["prompt_id"] = group["prompt_id"]
        return await asyncio.gather(
            *[f(**kwargs) if asyncio.iscoroutinefunction(f) else asyncio.to_thread(f, **kwargs) for f in funcs]
        )

    try:
        conn.send({"columns": [asyncio.run(score_group(g)) for g in groups], "names": [f.__name__ for f in funcs]})
    except BaseException as err:
        conn.send({"error": f"{type(err).__name__}: {err}"})


class AsyncGrpoTrainerContractTest(unittest.TestCase):
    def run_worker(self, funcs, groups):
        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe(duplex=False)
        p = ctx.Process(target=async_grpo_worker, args=(pickle.dumps(funcs), groups, child))
        p.start()
        report = parent.recv()
        p.join(30)
        self.assertNotIn("error", report)
        return report

    def groups(self):
        prompts, completions, ids = trl_batch(stack.rollout_svgs(), prompts=("fox", "mixed"))
        return [
            {"prompts": prompts[g : g + 8], "completions": completions[g : g + 8], "prompt_id": ids[g : g + 8]}
            for g in (0, 8)
        ]

    def test_whole_groups_scored_in_a_spawned_process(self):
        funcs = [rubrica.trl.rubrica_reward_async, rubrica.trl.rubrica_reward]
        report = self.run_worker(funcs, self.groups())
        self.assertEqual(report["names"], ["rubrica_reward_async", "rubrica_reward"])
        for async_col, sync_col in report["columns"]:
            self.assertEqual(async_col, sync_col)
            self.assertEqual(len(async_col), 8)
        self.assertTrue(any(r is None for r in report["columns"][1][0]))  # "mixed" has faults

    def test_component_functions_pickle_and_keep_their_names(self):
        funcs = rubrica.trl.component_rewards("ruler")
        self.assertEqual([f.__name__ for f in funcs], ["rubrica_semantic", "rubrica_visual", "rubrica_style"])
        report = self.run_worker(funcs, self.groups()[:1])
        self.assertEqual(report["names"], ["rubrica_semantic", "rubrica_visual", "rubrica_style"])
        self.assertEqual([len(c) for c in report["columns"][0]], [8, 8, 8])


class TrlComponentsTest(unittest.TestCase):
    """Depends on h24b (records carry `components`): GDPO functions sum to the reward."""

    def test_components_sum_to_the_reward_and_share_one_request(self):
        prompts, completions, ids = trl_batch(stack.rollout_svgs(), prompts=("fox", "mixed"))
        total = rubrica.trl.rubrica_reward(prompts, completions, prompt_id=ids)
        before = stack.metric("rubrica_http_requests_total", {"route": "/v1/rewards"})
        cols = [f(prompts=prompts, completions=completions, prompt_id=ids) for f in rubrica.trl.component_rewards()]
        self.assertEqual(stack.metric("rubrica_http_requests_total", {"route": "/v1/rewards"}) - before, 1)
        for i, r in enumerate(total):
            parts = [c[i] for c in cols]
            if r is None:
                self.assertEqual(parts, [None, None, None])
            else:
                self.assertAlmostEqual(sum(parts), r, delta=1e-12)


if __name__ == "__main__":
    unittest.main()
