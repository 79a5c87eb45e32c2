"""`rubrica serve --ors` against the OpenReward Standard clients, as their sources behave.

Neither client installs here, so ors_client.py reproduces them with the standard library from
their sources (cited there): openrewardstandard/python-sdk@a399408 and openreward 0.1.112, which
huggingface/trl@f2cd577 trl/experimental/openreward imports. TRL's side is reproduced from
trl/experimental/openreward/environment.py (_RolloutEnvironment: `reward` starts at 0.0 and
is replaced only by a non-null step reward; `rewards`/`metadata` per tool call; a call that
raises records None, None and "Error: …") and _spec.py (`_outcome_only_reward_func` returns
env.reward), and the group baseline from trainer/grpo_trainer.py (test_trl_contract.py).
"""

import base64
import json
import os
import threading
import time
import unittest
import urllib.request

import stack
from ors_client import OrsClient
from rubrica.trl import ors_reward
from test_trl_contract import grpo_advantages


def setUpModule():
    stack.start()


def judge_calls():
    with urllib.request.urlopen(stack.INFO["statsUrl"], timeout=10) as r:
        return json.loads(r.read())["judge_calls"]


class TrlRolloutEnv:
    """TRL's _RolloutEnvironment bookkeeping over our client (tool calls, reward, metadata)."""

    def __init__(self, client, task_spec):
        self.client = client
        self.sid = client.session(task_spec=task_spec)
        self.reward, self.rewards, self.metadata, self.last_output = 0.0, [], [], ""
        self.finished = False

    def call(self, name, tool_input):
        try:
            status, out, _, _ = self.client.call("", self.sid, name, tool_input)
            if status != 200:
                raise ConnectionError(f"HTTP {status}")
            if not out["ok"]:
                raise RuntimeError(out["error"])
        except Exception as e:  # TRL: rewards None, metadata None, "Error: …"
            self.rewards.append(None)
            self.metadata.append(None)
            self.last_output = f"Error: {e}"
            return self.last_output
        output = out["output"]
        self.rewards.append(output["reward"])
        if output["reward"] is not None:
            self.reward = float(output["reward"])
        self.metadata.append(output["metadata"])
        self.finished = bool(output["finished"])
        self.last_output = "\n".join(b.get("text", "") for b in output["blocks"] if b.get("text"))
        return self.last_output


def big_svg(n=128):
    """A drawing whose PNG is over 128 KiB once base64-encoded: random 4 px squares, sheared.

    Sheared so that no pixel row repeats the one above: rubrica's PNG encoder copies a row
    equal to the row above for a few bits, and the upright grid (every square four equal
    rows) now comes out at ~84 KiB of base64 (~460 KiB sheared)."""
    seed = [1]

    def rnd():
        seed[0] = seed[0] * 16807 % 2147483647
        return seed[0] / 2147483647

    s = 512 / n
    body = "".join(
        f'<rect x="{x * s}" y="{y * s}" width="{s}" height="{s}" fill="#{int(rnd() * 0xFFFFFF):06x}"/>'
        for y in range(n)
        for x in range(n)
    )
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><g transform="skewX(10)">{body}</g></svg>'


class DiscoveryAndShapes(unittest.TestCase):
    def setUp(self):
        self.c = OrsClient(stack.INFO["urlOrs"], key=stack.INFO["token"], style="openreward")

    def test_discovery_in_ephemeral_sessions_with_env_name(self):
        for prefix in ("", "/rubrica"):
            status, splits = self.c.discover("GET", f"{prefix}/splits")
            self.assertEqual(status, 200)
            self.assertIn({"name": "train", "type": "train"}, splits)
            status, tasks = self.c.discover("POST", f"{prefix}/tasks", {"split": "train"})
            self.assertEqual(tasks["env_name"], "rubrica")
            ids = [t["prompt_id"] for t in tasks["tasks"]]
            self.assertIn("fox", ids)
            status, n = self.c.discover("POST", f"{prefix}/num_tasks", {"split": "train"})
            self.assertEqual(n["num_tasks"], len(ids))
            status, one = self.c.discover("POST", f"{prefix}/task", {"split": "train", "index": 0})
            self.assertEqual(one["env_name"], "rubrica")
            self.assertEqual(one["task"]["prompt_id"], ids[0])
            self.assertEqual(set(one["task"]), {"prompt_id", "prompt", "domain"})
            status, rng = self.c.discover("POST", f"{prefix}/task_range", {"split": "train", "start": 1, "stop": 3})
            self.assertEqual(rng["env_name"], "rubrica")
            self.assertEqual([t["prompt_id"] for t in rng["tasks"]], ids[1:3])
            status, tools = self.c.discover("GET", f"{prefix}/tools")
            for spec in tools["tools"]:  # the parsers forbid any other key
                self.assertEqual(set(spec), {"name", "description", "input_schema"})
            self.assertEqual([t["name"] for t in tools["tools"]], ["submit", "render"])

    def test_task_tools_answers_in_a_session(self):
        sid = self.c.session(split="train", index=0)
        for prefix in ("", "/rubrica"):
            status, tools = self.c.request("GET", f"{prefix}/task_tools", sid=sid)
            self.assertEqual(status, 200)
            self.assertEqual([t["name"] for t in tools["tools"]], ["submit", "render"])
        self.c.close_session(sid)

    def test_full_rollout_bare_and_prefixed_answer_alike(self):
        svg = stack.read(stack.INFO["svgA"])
        outs = []
        for prefix in ("", "/rubrica"):
            sid = self.c.session(task_spec={"prompt_id": "fox", "prompt": "a red fox", "domain": "svg"})
            status, prompt = self.c.request("GET", f"{prefix}/prompt", sid=sid)
            self.assertEqual(status, 200)
            for block in prompt:
                self.assertIn("detail", block)
            self.assertIn("a red fox", prompt[0]["text"])
            status, out, _, _ = self.c.call(prefix, sid, "submit", {"code": svg})
            self.assertEqual(status, 200)
            self.assertTrue(out["ok"])
            self.assertEqual(set(out["output"]), {"blocks", "metadata", "reward", "finished"})
            for block in out["output"]["blocks"]:
                self.assertIn("detail", block)
            self.assertTrue(out["output"]["finished"])
            self.assertIsInstance(out["output"]["reward"], float)
            self.assertEqual(out["output"]["metadata"]["rubrica_status"], "ok")
            outs.append(out["output"]["reward"])
            self.c.close_session(sid)
        self.assertEqual(outs[0], outs[1])

    def test_results_over_4kb_are_chunked_and_a_picture_over_128kib_arrives_intact(self):
        sid = self.c.session(split="train", index=0)
        status, events, _, raw = self.c.sse("/call", sid=sid, body={"name": "render", "input": {"code": big_svg()}})
        self.assertEqual(status, 200)
        kinds = [e for e, _ in events]
        self.assertGreater(kinds.count("chunk"), 30)
        for line in raw:  # what the reader would strip: no chunk may begin with whitespace
            self.assertFalse(line[:1].isspace(), line[:20])
        _, out = OrsClient.result(events)
        self.assertTrue(out["ok"])
        self.assertIsNone(out["output"]["reward"])
        self.assertFalse(out["output"]["finished"])
        image = next(b for b in out["output"]["blocks"] if b["type"] == "image")
        self.assertEqual(image["mimeType"], "image/png")
        self.assertFalse(image["data"].startswith("data:"))
        png = base64.b64decode(image["data"], validate=True)
        self.assertEqual(png[:8], b"\x89PNG\r\n\x1a\n")
        self.assertGreater(len(image["data"]), 128 * 1024)
        self.c.close_session(sid)

    def test_unknown_tool_and_invalid_input_are_ok_false(self):
        sid = self.c.session(split="train", index=0)
        _, out, _, _ = self.c.call("", sid, "draw", {})
        self.assertFalse(out["ok"])
        _, out, _, _ = self.c.call("", sid, "submit", {"svg": "<svg/>"})
        self.assertFalse(out["ok"])
        self.c.close_session(sid)


class GraderFaults(unittest.TestCase):
    def test_a_grader_fault_is_null_and_leaves_the_trl_baseline(self):
        c = OrsClient(stack.INFO["urlOrs"], key=stack.INFO["token"], style="openreward")
        svgs = stack.rollout_svgs()
        envs = [TrlRolloutEnv(c, {"prompt_id": "fox"}) for _ in range(3)]
        envs.append(TrlRolloutEnv(c, {"prompt_id": "fail"}))  # the judge fails on this one
        for env, svg in zip(envs, svgs):
            env.call("submit", {"code": svg})
        fault = envs[-1]
        self.assertEqual(fault.metadata[-1]["grader_error"], True)
        self.assertIsNone(fault.rewards[-1])
        self.assertTrue(fault.finished)
        # TRL's default reward function keeps the 0.0 a null reward leaves: a silent zero.
        self.assertEqual(fault.reward, 0.0)
        rewards = ors_reward(environments=envs)
        self.assertIsNone(rewards[-1])
        for r in rewards[:-1]:
            self.assertIsInstance(r, float)
        nan = float("nan")
        _, adv = grpo_advantages([[nan if r is None else r] for r in rewards], num_generations=4)
        self.assertEqual(adv[-1], 0.0)
        measured = rewards[:-1]
        mean = sum(measured) / len(measured)
        for a, r in zip(adv[:-1], measured):  # the fault is out of the baseline
            self.assertEqual(a > 0, r > mean)
        for env in envs:
            c.close_session(env.sid)

    def test_unscoreable_is_a_real_zero_and_unsubmitted_is_zero(self):
        c = OrsClient(stack.INFO["urlOrs"], key=stack.INFO["token"])
        env = TrlRolloutEnv(c, {"prompt_id": "owl"})
        env.call("submit", {"code": "I will not draw"})
        self.assertEqual(env.metadata[-1]["rubrica_status"], "unscoreable")
        self.assertEqual(ors_reward(environments=[env]), [0.0])
        idle = TrlRolloutEnv(c, {"prompt_id": "owl"})
        idle.call("draw", {})  # the policy's mistake, shown to it; never submitted
        self.assertEqual(ors_reward(environments=[idle]), [0.0])
        for e in (env, idle):
            c.close_session(e.sid)


# The 35 s judge case: the wire contract is the server's, so one interpreter's run covers it
# (scripts/python-adapters.sh sets RUBRICA_SLOW_CONTRACTS=0 for the others).
@unittest.skipUnless(os.environ.get("RUBRICA_SLOW_CONTRACTS", "1") != "0", "RUBRICA_SLOW_CONTRACTS=0")
class SlowJudge(unittest.TestCase):
    def test_no_silence_over_15s_and_a_dropped_stream_resumes_with_one_judge_call(self):
        """The judge takes 35 s: past the clients' 30 s silence limit without pings."""
        c = OrsClient(stack.INFO["urlOrs"], key=stack.INFO["token"], style="openreward")
        before = judge_calls()
        found = {}

        def watched():
            sid = c.session(task_spec={"prompt_id": "slow"})
            status, events, longest, _ = c.sse("/call", sid=sid, body={"name": "submit", "input": {"code": stack.read(stack.INFO["svgA"])}}, timeout=30)
            found["watched"] = (status, OrsClient.result(events)[1], longest)

        def dropped():
            sid = c.session(task_spec={"prompt_id": "slow"})
            body = {"name": "submit", "input": {"code": stack.read(stack.INFO["svgB"])}}
            _, events, _, _ = c.sse("/call", sid=sid, body=body, stop_after_task_id=True)
            task_id = dict(events)["task_id"]
            time.sleep(2)
            status, events, _, _ = c.sse("/call", sid=sid, body={**body, "task_id": task_id}, timeout=30)
            found["dropped"] = (status, OrsClient.result(events))

        threads = [threading.Thread(target=watched), threading.Thread(target=dropped)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        status, out, longest = found["watched"]
        self.assertEqual(status, 200)
        self.assertIsInstance(out["output"]["reward"], float)
        self.assertLess(longest, 15.0)
        status, (task_id, out) = found["dropped"]
        self.assertEqual(status, 200)
        self.assertIsInstance(out["output"]["reward"], float)
        self.assertEqual(judge_calls() - before, 2)  # one per picture, the resume asked nothing


class AuthAndSessions(unittest.TestCase):
    def test_openreward_headers_with_auth_off_and_on(self):
        open_ = OrsClient(stack.INFO["urlOrsOpen"], key=None, style="openreward")  # X-API-Key: ""
        self.assertEqual(open_.discover("GET", "/splits")[0], 200)
        self.assertEqual(OrsClient(stack.INFO["urlOrsOpen"], key="anything").discover("GET", "/splits")[0], 200)
        on = stack.INFO["urlOrs"]
        self.assertEqual(OrsClient(on, key=stack.INFO["token"], style="openreward").request("GET", "/splits")[0], 200)
        self.assertEqual(OrsClient(on, key="wrong").request("GET", "/splits")[0], 401)
        self.assertEqual(OrsClient(on, key=None, style="openreward").request("GET", "/splits")[0], 401)
        self.assertEqual(OrsClient(on, key=None).request("GET", "/splits")[0], 401)
        bearer = OrsClient(on, key=None).request("GET", "/splits", extra={"Authorization": f"Bearer {stack.INFO['token']}"})
        self.assertEqual(bearer[0], 200)
        self.assertEqual(OrsClient(on, key=None).request("GET", "/health")[0], 200)

    def test_unknown_and_expired_sessions(self):
        c = OrsClient(stack.INFO["urlOrsOpen"])  # sessions idle 2 s are dropped there
        self.assertEqual(c.request("GET", "/prompt", sid="no-such-session")[0], 404)
        self.assertEqual(c.request("GET", "/prompt")[0], 400)
        kept = c.session(split="train", index=0)
        idle = c.session(split="train", index=0)
        for _ in range(4):  # any request that names a session keeps it
            time.sleep(1)
            self.assertEqual(c.request("POST", "/ping", sid=kept)[0], 200)
        self.assertEqual(c.request("GET", "/prompt", sid=idle)[0], 404)
        self.assertEqual(c.request("GET", "/prompt", sid=kept)[0], 200)

    def test_overload_is_a_503_before_the_stream(self):
        c = OrsClient(stack.INFO["urlOrsOpen"])  # two rollouts in flight at most
        svgs = stack.rollout_svgs()[:3]
        sids = [c.session(task_spec={"prompt_id": "hold"}) for _ in svgs]
        results = [None] * 3

        def submit(i):
            results[i] = c.sse("/call", sid=sids[i], body={"name": "submit", "input": {"code": svgs[i]}})

        threads = [threading.Thread(target=submit, args=(i,)) for i in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        statuses = sorted(r[0] for r in results)
        self.assertEqual(statuses, [200, 200, 503])
        refused = next(r for r in results if r[0] == 503)
        self.assertEqual(refused[1]["code"], "busy")

    def test_twenty_concurrent_sessions(self):
        c = OrsClient(stack.INFO["urlOrs"], key=stack.INFO["token"], style="openreward")
        svgs = stack.rollout_svgs()
        rewards = [None] * 20

        def rollout(i):
            sid = c.session(task_spec={"prompt_id": "owl" if i % 2 else "fox"})
            _, out, _, _ = c.call("/rubrica" if i % 3 else "", sid, "submit", {"code": svgs[i % len(svgs)]})
            rewards[i] = out["output"]["reward"]
            c.close_session(sid)

        threads = [threading.Thread(target=rollout, args=(i,)) for i in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        for r in rewards:
            self.assertIsInstance(r, float)


if __name__ == "__main__":
    unittest.main()
