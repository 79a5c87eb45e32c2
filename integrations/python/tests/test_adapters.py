"""Tests of the installed rubrica Python adapters against a real `rubrica serve`.

Install the package first, then run from any directory:

    pip install integrations/python
    python3 -m unittest discover -s integrations/python/tests -v
    (or, inside integrations/python: python3 -m unittest)

The adapters are imported by name from the installed package, as a trainer's worker imports
them: nothing here edits sys.path. setUpModule starts test/support/adapter-stack.ts from this
clone (a loopback judge double and a real `rubrica serve` with a token, rubrics "fox", "owl"
and "fail" — whose prompt makes the judge fail), so it needs node and the clone's
node_modules; tearDownModule stops it and checks that serve shut down cleanly.
Standard library only, like the adapters.
"""

import json
import os
import select
import subprocess
import tempfile
import time
import unittest

import rubrica
import rubrica.client
import rubrica.openrlhf
import rubrica.trl
import rubrica.verl
import rubrica_client
import rubrica_trl
from rubrica.client import RubricaClient, RubricaError, RubricaUnavailable

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
STACK = os.path.join("test", "support", "adapter-stack.ts")

_stack = None
_stack_log = None
SVG_A = SVG_B = None


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def _first_line(proc, timeout):
    """The helper's first stdout line (its JSON), or None when it died or took too long."""
    buf = b""
    deadline = time.monotonic() + timeout
    while b"\n" not in buf:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([proc.stdout], [], [], left)[0]:
            return None
        chunk = os.read(proc.stdout.fileno(), 65536)
        if not chunk:
            return None
        buf += chunk
    return buf.split(b"\n", 1)[0].decode("utf-8")


def setUpModule():
    global _stack, _stack_log, SVG_A, SVG_B
    if not os.path.exists(os.path.join(REPO, STACK)):
        raise RuntimeError(f"{STACK} not found under {REPO}: run these tests from a rubrica clone")
    _stack_log = tempfile.TemporaryFile()
    _stack = subprocess.Popen(
        ["node", "--import", "tsx", STACK],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=_stack_log,
    )
    line = _first_line(_stack, timeout=90)
    if line is None:
        _stack.kill()
        _stack.wait()
        _stack_log.seek(0)
        raise RuntimeError("adapter-stack.ts did not start:\n" + _stack_log.read().decode("utf-8", "replace"))
    info = json.loads(line)
    # The adapters read their configuration from the environment, as in a trainer's worker.
    os.environ["RUBRICA_URL"] = info["url"]
    os.environ["RUBRICA_TOKEN"] = info["token"]
    rubrica.client._default = None  # a client made earlier would carry another environment
    SVG_A, SVG_B = read(info["svgA"]), read(info["svgB"])


def tearDownModule():
    if _stack is None:
        return
    _stack.stdin.close()
    try:
        code = _stack.wait(timeout=60)
    except subprocess.TimeoutExpired:
        _stack.kill()
        code = _stack.wait()
    _stack_log.seek(0)
    log = _stack_log.read().decode("utf-8", "replace")
    _stack_log.close()
    if code != 0:
        raise RuntimeError(f"rubrica serve did not shut down cleanly (exit {code}):\n{log}")


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
        out = rubrica.verl.compute_score(
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
        d = rubrica.verl.compute_score("rubrica", fenced(SVG_B), "owl", {"index": 3})
        self.assertIsInstance(d, dict)
        self.assertEqual(d["status"], "ok")
        self.assertGreater(d["score"], 0)

    def test_batches_are_split_and_joined_in_order(self):
        client = RubricaClient(batch=2)
        out = rubrica.verl._score_batch(
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
        out = rubrica.openrlhf.reward_func(
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
        rewards = rubrica.trl.rubrica_reward(prompts, completions)
        self.assertEqual(len(rewards), 2)
        for r in rewards:
            self.assertIsInstance(r, float)
            self.assertGreater(r, 0)

    def test_none_for_judge_errors_and_unknown_prompts_zero_for_bad_drawings(self):
        rewards = rubrica.trl.rubrica_reward(
            ["ignored", "ignored", "a prompt with no rubric", "a red fox"],
            [fenced(SVG_A), fenced(SVG_B), fenced(SVG_A), "no svg here"],
            prompt_id=["fail", "fox", None, None],
        )
        self.assertIsNone(rewards[0])
        self.assertGreater(rewards[1], 0)
        self.assertIsNone(rewards[2])
        self.assertEqual(rewards[3], 0.0)

    def test_has_a_name_for_trl_logs(self):
        self.assertEqual(rubrica.trl.reward_func.__name__, "rubrica_reward")

    def test_grader_faults_are_none_whatever_their_reason(self):
        # The service's status vocabulary: a grader fault is never a measurement of the drawing.
        self.assertIsNone(rubrica.trl._reward_or_none({"status": "grader_error", "reason": "cache_error", "reward": 0}))
        self.assertIsNone(rubrica.trl._reward_or_none({"status": "unscoreable", "reason": "infra_error", "reward": 0}))
        self.assertEqual(rubrica.trl._reward_or_none({"status": "unscoreable", "reason": "blank", "reward": 0}), 0.0)
        self.assertEqual(rubrica.trl._reward_or_none({"status": "ok", "reward": 0.25}), 0.25)


class OldNamesTest(unittest.TestCase):
    def test_the_pre_package_module_names_are_the_package_functions(self):
        # Code written as `from rubrica_trl import rubrica_reward` keeps working once installed.
        self.assertIs(rubrica_trl.rubrica_reward, rubrica.trl.rubrica_reward)
        self.assertIs(rubrica_client.RubricaClient, rubrica.client.RubricaClient)
        self.assertIs(rubrica.RubricaUnavailable, rubrica.client.RubricaUnavailable)


class ClientTest(unittest.TestCase):
    def test_service_down_raises_a_clear_error(self):
        client = RubricaClient(url="http://127.0.0.1:9", retries=2, backoff=0.01, timeout=2)
        with self.assertRaises(RubricaUnavailable) as ctx:
            rubrica.verl._score_batch(["d"], ["x"], ["fox"], None, client=client)
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
            rubrica.client.default_client().post("/v1/rewards", {"items": []})
        self.assertEqual(ctx.exception.status, 400)
        self.assertIn("items", str(ctx.exception))


if __name__ == "__main__":
    unittest.main()
