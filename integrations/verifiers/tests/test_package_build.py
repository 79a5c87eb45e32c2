"""The package builds offline with its in-tree backend, and the result maps records strictly.

The build goes through build_backend/judge_build.py's PEP 517 hooks (what pip calls); the
wheel must hold the rubrica_judge modules and the project's name, and nothing else at top level.
"""

import importlib.util
import os
import tempfile
import unittest
import zipfile

from support import TraceDouble

from rubrica_judge import RubricaGraderFault, RubricaJudge, RubricaServiceError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def backend():
    spec = importlib.util.spec_from_file_location("judge_build", os.path.join(ROOT, "build_backend", "judge_build.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class PackageBuild(unittest.TestCase):
    def test_the_wheel_holds_the_package_and_its_metadata(self):
        build = backend()
        self.assertEqual(build.get_requires_for_build_wheel(), [])
        with tempfile.TemporaryDirectory() as out:
            name = build.build_wheel(out)
            self.assertEqual(name, "rubrica_judge-0.1.0-py3-none-any.whl")
            with zipfile.ZipFile(os.path.join(out, name)) as wheel:
                files = set(wheel.namelist())
                metadata = wheel.read("rubrica_judge-0.1.0.dist-info/METADATA").decode()
        self.assertTrue({"rubrica_judge/__init__.py", "rubrica_judge/judge.py", "rubrica_judge/service.py", "rubrica_judge/base.py"} <= files)
        self.assertEqual({f.split("/", 1)[0] for f in files}, {"rubrica_judge", "rubrica_judge-0.1.0.dist-info"})
        self.assertIn("Name: rubrica-judge\n", metadata)


class OutcomeMapping(unittest.TestCase):
    """RubricaJudge.outcome on records of the shapes src/core/status.ts defines."""

    def test_a_fault_reason_raises_whatever_the_status(self):
        # isGraderFaultRecord: a fault reason on an "unscoreable" record is still the grader's fault.
        with self.assertRaises(RubricaGraderFault):
            RubricaJudge().outcome({"status": "unscoreable", "reason": "infra_error", "reward": 0}, TraceDouble(""))

    def test_an_unknown_status_or_a_missing_reward_raises(self):
        for record in ({"status": "maybe", "reward": 0.5}, {"status": "ok", "reward": None}, {"status": "ok", "reward": float("nan")}):
            with self.assertRaises(RubricaServiceError, msg=record):
                RubricaJudge().outcome(record, TraceDouble(""))

    def test_a_plain_unscoreable_is_zero(self):
        trace = TraceDouble("")
        self.assertEqual(RubricaJudge().outcome({"status": "unscoreable", "reason": "no_code", "reward": 0}, trace), 0.0)
        self.assertEqual(trace.metrics, {"rubrica_unscoreable": 1.0})


if __name__ == "__main__":
    unittest.main()
