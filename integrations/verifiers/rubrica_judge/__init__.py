"""rubrica as a verifiers judge plugin: `RubricaJudge.score(task, trace)` posts the rollout to
`rubrica serve` (POST /v1/rewards) and returns its reward; 0.0 when the output is unscoreable;
raises on a grader fault or an unreachable service (verifiers then marks the rollout errored).

verifiers' loader (verifiers/v1/loaders.py at 6c64ce6) imports this module by the package name
of the hub id (`org/rubrica-judge` -> `rubrica_judge`) and takes the ONE `Judge` subclass
exported through `__all__`: keep RubricaJudge the only one listed here.
"""

from rubrica_judge.base import HAVE_VERIFIERS
from rubrica_judge.judge import RubricaJudge, RubricaJudgeConfig
from rubrica_judge.service import RubricaGraderFault, RubricaJudgeError, RubricaServiceError, RubricaUnreachable

__all__ = [
    "RubricaJudge",
    "RubricaJudgeConfig",
    "RubricaJudgeError",
    "RubricaGraderFault",
    "RubricaServiceError",
    "RubricaUnreachable",
    "HAVE_VERIFIERS",
]
__version__ = "0.1.0"
