"""Python adapters for the rubrica reward service: verl, OpenRLHF and TRL (standard library only).

Installed by `pip install integrations/python` so that trainer workers (Ray processes that
unpickle the reward function somewhere else) import it by name, with no sys.path edits:

    rubrica.verl.compute_score        verl's custom reward function (batch and single forms)
    rubrica.openrlhf.reward_func      OpenRLHF's `reward_func(queries, prompts, labels)`
    rubrica.trl.rubrica_reward        a TRL GRPOTrainer reward function
    rubrica.client.RubricaClient      the HTTP client they share (RUBRICA_URL, RUBRICA_TOKEN, ...)

`python3 -m rubrica path verl|openrlhf` prints the absolute path of the file to give a trainer
that loads its reward function by file path. The trainer modules are not imported here, so
importing the package costs only the client.
"""

from rubrica.client import RubricaClient, RubricaError, RubricaUnavailable, default_client

__version__ = "0.1.0"

__all__ = ["RubricaClient", "RubricaError", "RubricaUnavailable", "default_client", "__version__"]
