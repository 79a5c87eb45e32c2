"""Gated rollouts in the Python adapters (issue 41 item 3).

A rollout a gated check stopped (status "gated", reason the check, reward 0) is the policy's
own 0: the flat fields mark it `gated: 1` and never `grader_error`, its score is never replaced
by an imputed mean, and it counts among the group-mates a grader fault is imputed from (a
grader fault's imputed score must include the gated 0, as the server's group statistics do).

Run from integrations/python after installing the package:
    python -m unittest tests.test_gated
"""

import unittest

import rubrica.trl
from rubrica.records import BASE_FIELDS, flat_fields, impute_faults


def result(status, reward, reason=None, prompt_id="p"):
    out = {"reward_kind": "ruler", "status": status, "reward": reward, "prompt_id": prompt_id, "checks": {"renders": True}}
    if reason:
        out["reason"] = reason
    return out


class GatedTest(unittest.TestCase):
    def test_flat_fields_mark_gated_as_a_real_zero(self):
        out = flat_fields({**result("gated", 0.0, "judge_text"), "components": None}, "ruler")
        self.assertIn("gated", BASE_FIELDS)
        self.assertEqual((out["status"], out["reason"], out["score"]), ("gated", "judge_text", 0.0))
        self.assertEqual((out["gated"], out["grader_error"], out["scored"], out["unscoreable"]), (1, 0, 0, 0))

    def test_a_fault_is_imputed_from_its_gated_mate_too(self):
        ok = result("ok", 0.8)
        gated = result("gated", 0.0, "judge_text")
        fault = result("grader_error", 0.0, "judge_error")
        impute_faults([ok, gated, fault], "ruler")
        # The group's measured rewards are 0.8 and the gated 0: the fault gets their mean.
        self.assertAlmostEqual(fault["_imputed"]["score"], 0.4)
        self.assertNotIn("_imputed", gated)

    def test_trl_trains_on_the_gated_zero(self):
        self.assertEqual(rubrica.trl._reward_or_none(result("gated", 0.0, "judge_text")), 0.0)


if __name__ == "__main__":
    unittest.main()
