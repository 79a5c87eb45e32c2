"""slime's custom reward hooks, as its source calls them, against a real `rubrica serve`.

Written from THUDM/slime at commit 624b824a898ab0ec1fcb4d373004c7f3852bf515 (2026-08-21):
  * slime/utils/misc.py load_function: "rubrica.slime.custom_rm" -> importlib.import_module
    ("rubrica.slime") then getattr "custom_rm".
  * slime/rollout/rm_hub/__init__.py async_rm: `await rm_function(args, sample, **kwargs)` per
    sample; batched_async_rm: `await rm_function(args, samples, **kwargs)` with a list.
  * slime/rollout/sglang_rollout.py generate_and_rm: without --group-rm each sample's reward is
    awaited right after ITS generation (samples of a group finish at different times); a
    custom generate function may return a list of Samples, rewarded by batched_async_rm.
    generate_and_rm_group with --group-rm: after the whole group is generated,
    batched_async_rm(args, group) where group is list[Sample] (or list[list[Sample]] for
    fan-out generate functions); rewards are zipped back onto the samples.
  * slime/utils/types.py Sample: prompt (str or chat messages), response, label, reward
    (float or dict; with --reward-key a dict), metadata (dict), remove_sample (bool).
  * slime/ray/rollout.py: remove_sample zeroes the sample's loss mask; the reward still enters
    the group normalisation (_post_process_rewards: mean/std per n_samples_per_prompt).
The Sample below carries exactly the fields slime's Sample gives a reward function.
"""

import argparse
import asyncio
import dataclasses
import importlib
import os
import random
import unittest

import rubrica.client
import stack
from rubrica.components import component_fields
from rubrica.records import BASE_FIELDS
from stack import fenced


def setUpModule():
    stack.start()


@dataclasses.dataclass
class Sample:  # the fields of slime.utils.types.Sample a reward function reads or writes
    prompt: object = ""
    response: str = ""
    label: object = None
    reward: object = None
    metadata: dict = dataclasses.field(default_factory=dict)
    remove_sample: bool = False


def load_function(path):  # slime.utils.misc.load_function
    module_path, _, attr = path.rpartition(".")
    return getattr(importlib.import_module(module_path), attr)


ARGS = argparse.Namespace(custom_rm_path="rubrica.slime.custom_rm", group_rm=False, reward_key=None)


def group(label, n=8, offset=0):
    svgs = stack.rollout_svgs()
    return [
        Sample(
            prompt=[{"role": "user", "content": "a cat on a mat"}],
            response=fenced(svgs[(offset + k) % len(svgs)]),
            label=label,
        )
        for k in range(n)
    ]


class SlimeContractTest(unittest.TestCase):
    def test_per_sample_calls_as_generations_finish(self):
        rm = load_function(ARGS.custom_rm_path)
        samples = group("fox") + [Sample(prompt="a red fox", response="no svg", label="fox")]

        async def generate_and_rm(sample, delay):
            await asyncio.sleep(delay)  # generation time differs per sample
            sample.reward = await rm(ARGS, sample)
            return sample

        async def rollout():
            rng = random.Random(7)
            return await asyncio.gather(*(generate_and_rm(s, rng.uniform(0, 0.05)) for s in samples))

        before = stack.metric("rubrica_http_requests_total", {"route": "/v1/rewards"})
        done = asyncio.run(rollout())
        sent = stack.metric("rubrica_http_requests_total", {"route": "/v1/rewards"}) - before
        self.assertLess(sent, len(samples))  # calls within the window share requests
        for s in done[:-1]:
            self.assertIsInstance(s.reward, float)
            self.assertGreater(s.reward, 0)
            self.assertEqual(s.metadata["rubrica"]["status"], "ok")
            self.assertFalse(s.remove_sample)
        self.assertEqual((done[-1].reward, done[-1].metadata["rubrica"]["reason"]), (0.0, "no_svg"))
        keys = set(BASE_FIELDS) | set(component_fields("ruler"))
        for s in done:
            self.assertEqual(set(s.metadata["rubrica"]), keys)

    def test_group_rm_scores_the_group_in_one_request_and_masks_faults(self):
        rm = load_function(ARGS.custom_rm_path)
        samples = group("mixed")
        before = stack.metric("rubrica_http_requests_total", {"route": "/v1/rewards"})
        rewards = asyncio.run(rm(argparse.Namespace(**{**vars(ARGS), "group_rm": True}), samples))
        self.assertEqual(stack.metric("rubrica_http_requests_total", {"route": "/v1/rewards"}) - before, 1)
        for s, r in zip(samples, rewards):  # slime zips the rewards back
            s.reward = r
        faults = [s for s in samples if s.metadata["rubrica"]["grader_error"]]
        measured = [s for s in samples if s.metadata["rubrica"]["status"] == "ok"]
        self.assertTrue(faults and measured)
        mean = sum(s.reward for s in measured) / len(measured)
        for s in faults:
            self.assertTrue(s.remove_sample)  # no gradient from a fault
            self.assertAlmostEqual(s.reward, mean, delta=1e-12)  # and no pull on the group's mean
        for s in measured:
            self.assertFalse(s.remove_sample)

    def test_fan_out_groups_keep_their_nesting(self):
        rm = load_function(ARGS.custom_rm_path)
        nested = [group("fox", n=2), group("owl", n=3, offset=4)]
        rewards = asyncio.run(rm(ARGS, nested))
        self.assertEqual([len(x) for x in rewards], [2, 3])
        self.assertTrue(all(isinstance(r, float) and r > 0 for x in rewards for r in x))

    def test_unreachable_service_masks_the_sample_or_raises(self):
        rm = load_function(ARGS.custom_rm_path)
        client = rubrica.client.RubricaClient(url="http://127.0.0.1:9", retries=0)
        s = Sample(prompt="a red fox", response="x", label="fox")
        self.assertEqual(asyncio.run(rm(ARGS, s, client=client)), 0.0)
        self.assertTrue(s.remove_sample)
        self.assertEqual(s.metadata["rubrica"]["unreachable"], 1)
        os.environ["RUBRICA_ON_UNREACHABLE"] = "raise"
        try:
            with self.assertRaises(rubrica.client.RubricaUnavailable):
                asyncio.run(rm(ARGS, Sample(response="x", label="fox"), client=client))
        finally:
            del os.environ["RUBRICA_ON_UNREACHABLE"]


if __name__ == "__main__":
    unittest.main()
