"""Tests of the rubrica Python adapters against a real `rubrica serve`.

Run by test/server/python.test.ts, which starts the server (with a loopback judge double and
rubrics "fox", "owl" and "fail" — whose prompt makes the judge fail) and sets:
  RUBRICA_URL, RUBRICA_TOKEN   the live server
  RUBRICA_TEST_SVG_A/B         paths of two real SVG files
Standard library only, like the adapters.
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import rubrica_client  # noqa: E402
import rubrica_openrlhf  # noqa: E402
import rubrica_trl  # noqa: E402
import rubrica_verl  # noqa: E402
from rubrica_client import RubricaClient, RubricaError, RubricaUnavailable  # noqa: E402


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


SVG_A = read(os.environ["RUBRICA_TEST_SVG_A"])
SVG_B = read(os.environ["RUBRICA_TEST_SVG_B"])


def fenced(svg):
    return "Here it is:\n```svg\n" + svg + "\n```"


class FakeNumpyScalar:
    """Stands in for numpy.int64 in verl's extra_info (numpy is not installed here)."""

    def __init__(self, v):
        self.v = v

    def item(self):
        return self.v


class VerlTest(unittest.TestCase):
    def test_batch_form_returns_dicts_with_one_key_set(self):
        out = rubrica_verl.compute_score(
            data_sources=["rubrica", "rubrica", "rubrica", "rubrica"],
            solution_strs=[fenced(SVG_A), "no drawing at all", fenced(SVG_B), fenced(SVG_A)],
            ground_truths=["fox", "fox", "missing-id", "fail"],
            extra_infos=[{"index": FakeNumpyScalar(0)}, None, {"prompt": "an owl at night"}, {}],
        )
        self.assertEqual(len(out), 4)
        self.assertEqual(out[0]["status"], "ok")
        self.assertGreater(out[0]["score"], 0)
        self.assertAlmostEqual(out[0]["score"], out[0]["crit_concept_recognisability"])
        self.assertEqual((out[1]["score"], out[1]["reason"]), (0, "no_svg"))
        self.assertIsNone(out[1]["crit_key_parts"])
        self.assertEqual(out[2]["status"], "ok")  # found by extra_info.prompt
        self.assertEqual((out[3]["score"], out[3]["judge_error"]), (0, 1))
        keys = set(out[0])
        for d in out:
            self.assertEqual(set(d), keys)
            self.assertIsInstance(d["score"], (int, float))

    def test_single_form_returns_one_dict(self):
        d = rubrica_verl.compute_score("rubrica", fenced(SVG_B), "owl", {"index": 3})
        self.assertIsInstance(d, dict)
        self.assertEqual(d["status"], "ok")
        self.assertGreater(d["score"], 0)

    def test_batches_are_split_and_joined_in_order(self):
        client = RubricaClient(batch=2)
        out = rubrica_verl._score_batch(
            ["rubrica"] * 5,
            [fenced(SVG_A), "x", fenced(SVG_B), "y", fenced(SVG_A)],
            ["fox", "fox", "owl", "owl", "nope"],
            None,
            client=client,
        )
        self.assertEqual([d["reason"] for d in out], ["", "no_svg", "", "no_svg", "no_rubric"])


class OpenRlhfTest(unittest.TestCase):
    def test_reward_func_cuts_the_response_out_of_the_query(self):
        prompt = "<|im_start|>system\nDraw.<|im_end|>\n<|im_start|>user\na red fox<|im_end|>\n<|im_start|>assistant\n"
        out = rubrica_openrlhf.reward_func(
            [prompt + fenced(SVG_A) + "<|im_end|><|endoftext|>", prompt + "sorry<|im_end|>"],
            [prompt, prompt],
            ["fox", None],
        )
        rewards = list(out["rewards"])
        self.assertGreater(rewards[0], 0)
        self.assertEqual(rewards[1], 0)
        self.assertEqual(list(out["scores"]), rewards)
        self.assertEqual(list(out["extra_logs"]["scored"]), [1, 0])


class TrlTest(unittest.TestCase):
    def test_strings_and_chat_messages(self):
        prompts = ["a red fox", [{"role": "system", "content": "Draw."}, {"role": "user", "content": "an owl at night"}]]
        completions = [fenced(SVG_A), [{"role": "assistant", "content": fenced(SVG_B)}]]
        rewards = rubrica_trl.rubrica_reward(prompts, completions)
        self.assertEqual(len(rewards), 2)
        for r in rewards:
            self.assertIsInstance(r, float)
            self.assertGreater(r, 0)

    def test_none_for_judge_errors_and_unknown_prompts_zero_for_bad_drawings(self):
        rewards = rubrica_trl.rubrica_reward(
            ["ignored", "ignored", "a prompt with no rubric", "a red fox"],
            [fenced(SVG_A), fenced(SVG_B), fenced(SVG_A), "no svg here"],
            prompt_id=["fail", "fox", None, None],
        )
        self.assertIsNone(rewards[0])
        self.assertGreater(rewards[1], 0)
        self.assertIsNone(rewards[2])
        self.assertEqual(rewards[3], 0.0)

    def test_has_a_name_for_trl_logs(self):
        self.assertEqual(rubrica_trl.reward_func.__name__, "rubrica_reward")


class ClientTest(unittest.TestCase):
    def test_service_down_raises_a_clear_error(self):
        client = RubricaClient(url="http://127.0.0.1:9", retries=2, backoff=0.01, timeout=2)
        with self.assertRaises(RubricaUnavailable) as ctx:
            rubrica_verl._score_batch(["d"], ["x"], ["fox"], None, client=client)
        msg = str(ctx.exception)
        self.assertIn("http://127.0.0.1:9", msg)
        self.assertIn("3 attempts", msg)

    def test_wrong_token_is_not_retried_and_says_why(self):
        client = RubricaClient(token="wrong", retries=3, backoff=5)
        with self.assertRaises(RubricaError) as ctx:
            client.post("/v1/rewards", {"items": [{"id": "a", "completion": "x"}]})
        self.assertNotIsInstance(ctx.exception, RubricaUnavailable)
        self.assertEqual(ctx.exception.status, 401)
        self.assertEqual(ctx.exception.code, "unauthorized")

    def test_bad_request_message_comes_through(self):
        with self.assertRaises(RubricaError) as ctx:
            rubrica_client.default_client().post("/v1/rewards", {"items": []})
        self.assertEqual(ctx.exception.status, 400)
        self.assertIn("items", str(ctx.exception))


if __name__ == "__main__":
    unittest.main()
