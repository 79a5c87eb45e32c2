"""verl's reward loop, as its source calls a reward function, against a real `rubrica serve`.

Written from verl at commit b178a3cd56f58b2d502255daba591e92833930a7 (2026-01-29, main) and
the stored verl/experimental/reward_loop/reward_loop.py at 603d33deafaacacc5f5bc591d380d144543288b3:
  * verl/utils/import_utils.py load_module: "pkg://rubrica.verl" -> importlib.import_module
    ("rubrica.verl"); the function is config `custom_reward_function.name` (new layout:
    reward.custom_reward_function.name, default "compute_score"), taken with getattr.
  * verl/trainer/ppo/reward.py get_custom_reward_fn: wraps it as
    partial(_call_with_kwargs_async, raw_fn, reward_kwargs) when inspect.iscoroutinefunction,
    so custom_reward_function.reward_kwargs arrive as keyword arguments (here: reward=...).
  * verl/experimental/reward_loop/reward_manager/naive.py run_single: per sample, awaits
    compute_score(data_source=, solution_str=, ground_truth=, extra_info=, **extra) where
    extra_info carries num_turns and rollout_reward_scores; a sync function runs in
    loop.run_in_executor(None, ...). A dict result: "score" is the reward, every key goes to
    reward_extra_info.
  * reward_loop.py RewardLoopWorker.compute_score_batch: one asyncio task per sample of the
    worker's chunk, gathered; RewardLoopManager.compute_rm_score: data.chunk(num_workers)
    (contiguous chunks, one per Ray worker process), then
    reward_extra_keys = set(reward_extra_infos[0].keys()) and
    np.array([info[key] for info in reward_extra_infos]) — a sample lacking a key of the
    first one raises KeyError, so every path must return the same keys.
  * reward_manager/limited.py RateLimitedRewardManager: its semaphore and token buckets are
    class attributes, i.e. per worker PROCESS (max_concurrent, max_rpm, max_tpm).
  * verl/trainer/ppo/metric_utils.py process_validation_metrics: np.mean over each extras key,
    skipping keys whose first value is a str — so extras are numbers or strings, never None.
"""

import asyncio
import functools
import inspect
import math
import multiprocessing
import os
import statistics
import time
import unittest

import rubrica.client
import rubrica.components
import rubrica.verl
import stack
from rubrica.components import component_fields
from rubrica.records import BASE_FIELDS
from rubrica.verl import RubricaError, RubricaUnavailable
from stack import fenced

KEYS = set(BASE_FIELDS) | set(component_fields("ruler"))


def setUpModule():
    stack.start()


def load_like_verl(path, name):
    """verl's load_extern_object for a pkg:// path, then get_custom_reward_fn's wrapping."""
    import importlib

    assert path.startswith("pkg://")
    module = importlib.import_module(path[len("pkg://") :].replace("/", "."))
    raw_fn = getattr(module, name)

    async def call_with_kwargs_async(raw_fn, extra_kwargs, *args, **kwargs):
        return await raw_fn(*args, **{**kwargs, **extra_kwargs})

    def call_with_kwargs(raw_fn, extra_kwargs, *args, **kwargs):
        return raw_fn(*args, **{**kwargs, **extra_kwargs})

    if inspect.iscoroutinefunction(raw_fn):
        return functools.partial(call_with_kwargs_async, raw_fn, {})
    return functools.partial(call_with_kwargs, raw_fn, {})


async def run_single(compute_score, loop, sample):
    """naive.py run_single: decode in the default executor, then the reward call as verl makes it."""
    extra_info = dict(sample["extra_info"])
    extra_info["num_turns"] = None
    extra_info["rollout_reward_scores"] = {}
    response_str = await loop.run_in_executor(None, lambda: sample["response"])
    if inspect.iscoroutinefunction(compute_score):
        result = await compute_score(
            data_source=sample["data_source"],
            solution_str=response_str,
            ground_truth=sample["ground_truth"],
            extra_info=extra_info,
        )
    else:
        result = await loop.run_in_executor(
            None,
            lambda: compute_score(
                data_source=sample["data_source"],
                solution_str=response_str,
                ground_truth=sample["ground_truth"],
                extra_info=extra_info,
            ),
        )
    return {"reward_score": result["score"], "reward_extra_info": dict(result)}


def extras_like_verl(outputs):
    """compute_rm_score: the extras keys are the FIRST sample's; KeyError if another lacks one."""
    infos = [o["reward_extra_info"] for o in outputs]
    keys = set(infos[0].keys())
    return {key: [info[key] for info in infos] for key in keys}


def verl_worker(chunk, conn):
    """One RewardLoopWorker process: its own event loop, one task per sample, gathered."""
    import rubrica.batcher

    compute_score = load_like_verl("pkg://rubrica.verl", "compute_score")

    async def compute_score_batch():
        loop = asyncio.get_running_loop()

        async def timed(sample):
            start = time.monotonic()
            out = await run_single(compute_score, loop, sample)
            return out, time.monotonic() - start

        return await asyncio.gather(*(asyncio.create_task(timed(s)) for s in chunk))

    try:
        start = time.monotonic()
        pairs = asyncio.run(compute_score_batch())
        outputs = [p[0] for p in pairs]
        b = next(iter(rubrica.batcher._batchers.values()))
        conn.send(
            {
                "extras": extras_like_verl(outputs),
                "keysets": [sorted(o["reward_extra_info"]) for o in outputs],
                "latencies": [p[1] for p in pairs],
                "wall": time.monotonic() - start,
                "calls": b.calls,
                "batches": b.sent,
                "sockets": b.client.connection.opened,
            }
        )
    except BaseException as err:  # the parent reports it
        conn.send({"error": f"{type(err).__name__}: {err}"})


def verl_batch(svgs, prompts=128, n=8):
    """A training batch as verl lays it out: rollout.n consecutive samples per prompt."""
    samples = []
    for p in range(prompts):
        # Mostly real rubrics; every 16th prompt has a rubric whose judge fails (grader faults),
        # every 32nd none at all (unscoreable no_rubric); some rollouts draw nothing.
        gt = "fail" if p % 16 == 5 else "nope" if p % 32 == 7 else ("fox", "owl")[p % 2]
        for k in range(n):
            response = "I cannot draw that." if (p + k) % 11 == 3 else fenced(svgs[(p * 3 + k) % len(svgs)])
            samples.append(
                {
                    "data_source": "rubrica",
                    "response": response,
                    "ground_truth": gt,
                    "extra_info": {"split": "train", "index": p, "prompt_id": gt},
                }
            )
    return samples


class VerlContractTest(unittest.TestCase):
    def test_loads_by_pkg_path_as_an_async_function_taking_verls_keywords(self):
        fn = load_like_verl("pkg://rubrica.verl", "compute_score")
        self.assertTrue(inspect.iscoroutinefunction(fn))  # verl awaits it (no thread pool)
        params = inspect.signature(rubrica.verl.compute_score).parameters
        for name in ("data_source", "solution_str", "ground_truth", "extra_info"):
            self.assertIn(name, params)
        self.assertTrue(any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()))
        # With a reward-model router verl also passes these; they must not break the call.
        out = asyncio.run(
            fn(
                data_source="rubrica",
                solution_str="no drawing",
                ground_truth="fox",
                extra_info={"index": 0},
                reward_router_address="127.0.0.1:1",
                reward_model_tokenizer=None,
            )
        )
        self.assertEqual(set(out), KEYS)
        self.assertEqual((out["status"], out["reason"], out["score"]), ("unscoreable", "no_svg", 0.0))

    def test_1024_per_sample_calls_from_8_worker_processes_are_micro_batched(self):
        svgs = stack.rollout_svgs()
        samples = verl_batch(svgs)
        self.assertEqual(len(samples), 1024)
        workers = 8
        size = len(samples) // workers  # DataProto.chunk: contiguous, equal chunks
        before = stack.metric("rubrica_http_requests_total", {"route": "/v1/rewards"})
        ctx = multiprocessing.get_context("spawn")  # Ray actors are separate processes
        procs, pipes = [], []
        start = time.monotonic()
        for w in range(workers):
            parent, child = ctx.Pipe(duplex=False)
            p = ctx.Process(target=verl_worker, args=(samples[w * size : (w + 1) * size], child))
            p.start()
            procs.append(p)
            pipes.append(parent)
        reports = [pipe.recv() for pipe in pipes]
        wall = time.monotonic() - start
        for p in procs:
            p.join(30)
        errors = [r["error"] for r in reports if "error" in r]
        self.assertEqual(errors, [])
        received = stack.metric("rubrica_http_requests_total", {"route": "/v1/rewards"}) - before
        calls = sum(r["calls"] for r in reports)
        batches = sum(r["batches"] for r in reports)
        self.assertEqual(calls, 1024)
        # Every request the workers sent arrived, and micro-batching shows: far fewer requests
        # than calls (one per worker when the whole chunk lands within the window).
        self.assertEqual(received, batches)
        self.assertLessEqual(received, calls / 16)
        for r in reports:
            self.assertLessEqual(r["sockets"], r["batches"])  # keep-alive: no socket per call
            # The extras verl builds from the first sample's keys hold every sample.
            self.assertEqual(set(r["extras"]), KEYS)
            self.assertEqual({tuple(k) for k in r["keysets"]}, {tuple(sorted(KEYS))})
        extras = {k: [v for r in reports for v in r["extras"][k]] for k in KEYS}
        statuses = set(extras["status"])
        self.assertEqual(statuses, {"ok", "unscoreable", "grader_error"})  # every path was taken
        for key in KEYS - {"status", "reason"}:
            for v in extras[key]:
                self.assertIsInstance(v, (int, float), key)
        for i, status in enumerate(extras["status"]):
            self.assertEqual(extras["grader_error"][i], int(status == "grader_error"))
            self.assertEqual(extras["scored"][i], int(status == "ok"))
        lat = sorted(v for r in reports for v in r["latencies"])
        print(
            f"\n[verl rhythm] 1024 calls from 8 processes -> {int(received)} POST /v1/rewards; "
            f"per-call latency p50 {statistics.median(lat) * 1000:.0f} ms, "
            f"p95 {lat[int(0.95 * len(lat))] * 1000:.0f} ms, max {lat[-1] * 1000:.0f} ms; wall {wall:.1f} s"
        )

    def test_a_sync_function_in_verls_thread_pool_still_micro_batches(self):
        # naive.py runs a sync reward function with loop.run_in_executor(None, ...): calls from
        # the default pool's threads meet in the same batcher.
        fn = load_like_verl("pkg://rubrica.verl", "compute_score_sync")
        self.assertFalse(inspect.iscoroutinefunction(fn))
        svgs = stack.rollout_svgs()
        samples = [
            {"data_source": "rubrica", "response": fenced(svgs[i]), "ground_truth": "owl", "extra_info": {"index": i}}
            for i in range(16)
        ]

        async def chunk():
            loop = asyncio.get_running_loop()
            return await asyncio.gather(*(run_single(fn, loop, s) for s in samples))

        before = stack.metric("rubrica_http_requests_total", {"route": "/v1/rewards"})
        outputs = asyncio.run(chunk())
        sent = stack.metric("rubrica_http_requests_total", {"route": "/v1/rewards"}) - before
        # A sync call holds its executor thread until its batch is answered, so the 16 calls go
        # out in waves of the default pool's width (min(32, cpus + 4): 6 threads on 2 cores ->
        # 3 waves); a wave whose threads start a window apart may split once. Without the
        # batcher every call would be its own request (16).
        workers = min(32, (os.cpu_count() or 1) + 4)
        waves = -(-len(samples) // workers)
        self.assertLessEqual(sent, min(2 * waves, len(samples) // 2))
        self.assertEqual(set(extras_like_verl(outputs)), KEYS)
        self.assertTrue(all(o["reward_extra_info"]["status"] == "ok" for o in outputs))

    def test_a_group_in_one_request_imputes_its_faulted_members(self):
        # Rubric "mixed": the judge fails on some pictures. The group's 8 calls arrive together,
        # go out as one request, and each grader fault gets its measured mates' mean score
        # (advantage 0, group mean unchanged), flagged grader_error — never a silent 0.
        svgs = stack.rollout_svgs()

        async def group():
            return await asyncio.gather(
                *(rubrica.verl.compute_score("rubrica", fenced(svgs[i]), "mixed", {"index": 9}) for i in range(8))
            )

        out = asyncio.run(group())
        faults = [d for d in out if d["grader_error"]]
        measured = [d for d in out if d["status"] == "ok"]
        self.assertTrue(faults and measured, [d["status"] for d in out])
        mean = sum(d["score"] for d in measured) / len(measured)
        for d in faults:
            self.assertEqual((d["status"], d["reason"], d["judge_error"]), ("grader_error", "judge_error", 1))
            self.assertAlmostEqual(d["score"], mean, delta=1e-12)
            self.assertEqual(set(d), KEYS)

    def test_unreachable_service_gives_the_fault_value_with_the_same_keys(self):
        client = rubrica.client.RubricaClient(url="http://127.0.0.1:9", retries=1, backoff=0.01, deadline=2)
        out = asyncio.run(rubrica.verl.compute_score("rubrica", fenced("<svg/>"), "fox", {}, client=client))
        self.assertEqual(set(out), KEYS)
        self.assertEqual((out["score"], out["grader_error"], out["unreachable"]), (0.0, 1, 1))
        os.environ["RUBRICA_FAULT_SCORE"] = "0.5"
        os.environ["RUBRICA_ON_UNREACHABLE"] = "fault"
        try:
            out = asyncio.run(rubrica.verl.compute_score("rubrica", "x", "fox", {}, client=client))
            self.assertEqual(out["score"], 0.5)
            os.environ["RUBRICA_ON_UNREACHABLE"] = "raise"
            with self.assertRaises(RubricaUnavailable):
                asyncio.run(rubrica.verl.compute_score("rubrica", "x", "fox", {}, client=client))
        finally:
            del os.environ["RUBRICA_FAULT_SCORE"], os.environ["RUBRICA_ON_UNREACHABLE"]

    def test_a_refused_request_raises_instead_of_training_on_a_fault_value(self):
        client = rubrica.client.RubricaClient(token="wrong")
        with self.assertRaises(RubricaError) as ctx:
            asyncio.run(rubrica.verl.compute_score("rubrica", "x", "fox", {}, client=client))
        self.assertEqual(ctx.exception.status, 401)

    def test_a_record_of_another_kind_is_a_clear_error_on_the_first_call(self):
        client = rubrica.client.RubricaClient(url=stack.INFO["urlUniversal"])
        with self.assertRaises(RubricaError) as ctx:
            asyncio.run(rubrica.verl.compute_score("rubrica", "x", "fox", {}, client=client))
        self.assertIn("'universal'", str(ctx.exception))
        self.assertIn("RUBRICA_REWARD=universal", str(ctx.exception))
        # Configured for that kind (reward_kwargs), the same service works, with its keys.
        out = asyncio.run(rubrica.verl.compute_score("rubrica", "x", "fox", {}, client=client, reward="universal"))
        self.assertEqual(set(out), set(BASE_FIELDS) | set(component_fields("universal")))

    def test_legacy_batch_form_for_verl_before_february_2026(self):
        # verl/workers/reward_manager/batch.py (at v0.7.0 and b178a3cd; used with
        # reward_model.use_reward_loop=False there, by default up to v0.6.1): a sync call with lists.
        svgs = stack.rollout_svgs()
        out = rubrica.verl.compute_score_batch(
            data_sources=["rubrica"] * 4,
            solution_strs=[fenced(svgs[0]), "nothing", fenced(svgs[1]), fenced(svgs[2])],
            ground_truths=["fox", "fox", "missing-id", "fail"],
            extra_infos=[{"index": 0}, None, {"prompt": "an owl at night"}, {}],
        )
        self.assertEqual([d["status"] for d in out], ["ok", "unscoreable", "ok", "grader_error"])
        for d in out:
            self.assertEqual(set(d), KEYS)
        sync = rubrica.verl.compute_score_sync("rubrica", fenced(svgs[0]), "fox", {"index": 3})
        self.assertEqual(sync["score"], out[0]["score"])


class VerlComponentsTest(unittest.TestCase):
    """Depends on h24b (records carry `components`): comp_<key> sum to the score."""

    def test_components_sum_to_the_score_on_every_path(self):
        svgs = stack.rollout_svgs()

        async def batch():
            calls = [rubrica.verl.compute_score("rubrica", fenced(s), "fox", {}) for s in svgs[:6]]
            calls.append(rubrica.verl.compute_score("rubrica", "nothing", "fox", {}))
            calls.append(rubrica.verl.compute_score("rubrica", fenced(svgs[0]), "fail", {}))
            return await asyncio.gather(*calls)

        for d in asyncio.run(batch()):
            comps = [d[f] for f in component_fields("ruler")]
            self.assertFalse(any(math.isnan(c) for c in comps), d)
            self.assertAlmostEqual(sum(comps), d["score"], delta=1e-12)

    def test_an_imputed_fault_gets_its_mates_mean_components(self):
        svgs = stack.rollout_svgs()

        async def group():
            return await asyncio.gather(
                *(rubrica.verl.compute_score("rubrica", fenced(svgs[i]), "mixed", {}) for i in range(8))
            )

        out = asyncio.run(group())
        measured = [d for d in out if d["status"] == "ok"]
        for d in (d for d in out if d["grader_error"]):
            for f in component_fields("ruler"):
                self.assertAlmostEqual(d[f], sum(m[f] for m in measured) / len(measured), delta=1e-12)
            self.assertAlmostEqual(sum(d[f] for f in component_fields("ruler")), d["score"], delta=1e-12)

    def test_the_package_key_table_is_the_services(self):
        served = rubrica.client.default_client().get("/v1/components")
        self.assertEqual({k: tuple(v) for k, v in served.items()}, rubrica.components.REWARD_COMPONENT_KEYS)


if __name__ == "__main__":
    unittest.main()
