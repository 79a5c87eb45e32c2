"""Tests of the installed rubrica Python adapters against a real `rubrica serve`.

Install the package first, then run from any directory:

    pip install integrations/python
    python3 -m unittest discover -s integrations/python/tests -v
    (or, inside integrations/python: python3 -m unittest)

The adapters are imported by name from the installed package, as a trainer's worker imports
them: nothing here edits sys.path (tests/stack.py is found as a sibling module by unittest).
The live service is tests/stack.py's. Each trainer's contract is tested in its own
test_<trainer>_contract.py; this file holds what the adapters share.
Standard library only, like the adapters.
"""

import os
import socket
import subprocess
import sys
import time
import unittest

import rubrica
import rubrica.client
import rubrica.openrlhf
import rubrica.trl
import rubrica.verl
import rubrica_client
import rubrica_trl
import stack
from rubrica.client import RubricaClient, RubricaError, RubricaUnavailable
from stack import fenced

SVG_A = SVG_B = None


def setUpModule():
    global SVG_A, SVG_B
    info = stack.start()
    SVG_A, SVG_B = stack.read(info["svgA"]), stack.read(info["svgB"])


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
            client.score_items([{"id": "a", "prompt_id": "fox", "completion": "x"}])
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

    def test_keep_alive_reuses_one_socket(self):
        client = RubricaClient()
        for _ in range(5):
            client.get("/healthz")
        self.assertEqual(client.connection.opened, 1)
        client.close()

    def test_a_forked_worker_never_shares_the_parents_socket(self):
        # Ray or multiprocessing may fork a process that already used the client: the child
        # must open its own connection (two processes on one socket interleave their bytes).
        client = RubricaClient()
        client.get("/healthz")
        parent_socket = client.connection._idle[0].sock
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: one request, then report whether it reused the parent's socket
            try:
                client.get("/healthz")
                mine = client.connection._idle[0].sock
                os.write(write, b"shared" if mine is parent_socket else b"own")
            finally:
                os._exit(0)
        os.close(write)
        os.waitpid(pid, 0)
        self.assertEqual(os.read(read, 16), b"own")
        os.close(read)
        client.get("/healthz")  # the parent's socket still works
        self.assertIs(client.connection._idle[0].sock, parent_socket)
        client.close()

    def test_the_deadline_ends_the_retries_early(self):
        # 20 retries would back off for minutes; a 1 s deadline stops them after a few.
        client = RubricaClient(url="http://127.0.0.1:9", retries=20, backoff=0.2, deadline=1.0)
        start = time.monotonic()
        with self.assertRaises(RubricaUnavailable) as ctx:
            client.get("/healthz")
        self.assertLess(time.monotonic() - start, 1.5)
        self.assertNotIn("21 attempts", str(ctx.exception))

    def test_the_timeout_bounds_one_request_to_a_silent_server(self):
        # A socket that accepts and never answers (a hung service): RUBRICA_TIMEOUT ends the wait.
        with socket.socket() as silent:
            silent.bind(("127.0.0.1", 0))
            silent.listen(8)
            client = RubricaClient(url=f"http://127.0.0.1:{silent.getsockname()[1]}", timeout=0.5, retries=1, backoff=0.01)
            start = time.monotonic()
            with self.assertRaises(RubricaUnavailable) as ctx:
                client.get("/healthz")
            self.assertLess(time.monotonic() - start, 3)
            self.assertIn("2 attempts", str(ctx.exception))


class DoctorTest(unittest.TestCase):
    """`python3 -m rubrica doctor URL` as an operator runs it, exit codes included."""

    def doctor(self, *args, env=None):
        full = dict(os.environ, **(env or {}))
        return subprocess.run(
            [sys.executable, "-m", "rubrica", "doctor", *args], capture_output=True, text=True, env=full, timeout=60
        )

    def test_a_usable_service_passes_every_check(self):
        out = self.doctor(stack.INFO["url"], "--prompt-id", "fox")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        for check in ("reachable", "authorised", "round trip", "latency"):
            self.assertRegex(out.stdout, rf"ok +{check}")
        self.assertIn("status ok", out.stdout)
        self.assertRegex(out.stdout, r"latency +[0-9.]+ ms")

    def test_exit_codes(self):
        self.assertEqual(self.doctor("http://127.0.0.1:9").returncode, 3)
        wrong = self.doctor(stack.INFO["url"], env={"RUBRICA_TOKEN": "wrong"})
        self.assertEqual(wrong.returncode, 4)
        self.assertIn("token was refused", wrong.stdout)
        missing = self.doctor(stack.INFO["url"], "--token", "")
        self.assertEqual(missing.returncode, 4)
        self.assertIn("no token sent", missing.stdout)
        judge_fails = self.doctor(stack.INFO["url"], "--prompt-id", "fail")
        self.assertEqual(judge_fails.returncode, 5)
        self.assertIn("grader fault: judge_error", judge_fails.stdout)
        other_kind = self.doctor(stack.INFO["urlUniversal"])  # expects ruler, the service scores universal
        self.assertEqual(other_kind.returncode, 6)
        self.assertIn("'universal'", other_kind.stdout)
        self.assertEqual(self.doctor("ftp://x").returncode, 2)
        self.assertEqual(self.doctor(stack.INFO["url"], "--reward", "nope").returncode, 2)


if __name__ == "__main__":
    unittest.main()
