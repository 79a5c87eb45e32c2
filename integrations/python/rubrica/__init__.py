"""Python adapters for the rubrica reward service: verl, OpenRLHF and TRL (standard library only).

Installed by `pip install integrations/python` so that trainer workers (Ray processes that
unpickle the reward function somewhere else) import it by name, with no sys.path edits:

    rubrica.verl.compute_score        verl's reward-loop function (async, per sample, micro-batched)
    rubrica.verl.compute_score_batch  verl < Feb 2026 BatchRewardManager form
    rubrica.openrlhf.reward_func      OpenRLHF's `reward_func(queries, prompts, labels)`
    rubrica.trl.rubrica_reward        TRL GRPOTrainer reward functions (also _async, component_rewards)
    rubrica.slime.custom_rm           slime --custom-rm-path (per sample, or per group with --group-rm)
    rubrica.components                the component keys of each reward kind (GDPO)
    rubrica.client.RubricaClient      the HTTP client they share (RUBRICA_URL, RUBRICA_TOKEN, ...)

`python3 -m rubrica doctor URL` checks a service from a trainer's node (rubrica.doctor).

`python3 -m rubrica path verl|openrlhf` prints the absolute path of the file to give a trainer
that loads its reward function by file path. The trainer modules are not imported here, so
importing the package costs only the client.
"""

from rubrica.client import RubricaClient, RubricaError, RubricaUnavailable, default_client
from rubrica.components import REWARD_COMPONENT_KEYS

__version__ = "0.1.0"

__all__ = [
    "RubricaClient",
    "RubricaError",
    "RubricaUnavailable",
    "REWARD_COMPONENT_KEYS",
    "default_client",
    "__version__",
]
