"""The name TRL code used before the package existed: `from rubrica_trl import rubrica_reward`.

Kept so such code runs unchanged once the package is installed (without its old sys.path line);
new code imports rubrica.trl.
"""

from rubrica.trl import NOT_THE_POLICYS_FAULT, RubricaError, RubricaUnavailable, reward_func, rubrica_reward

__all__ = ["rubrica_reward", "reward_func", "RubricaError", "RubricaUnavailable", "NOT_THE_POLICYS_FAULT"]
