"""verl's entry file for rubrica: `custom_reward_function.path` may point here.

verl loads this file by path under a module name of its own ("custom_module"). Everything here
is imported from the installed `rubrica` package, so `compute_score` keeps its importable home
(rubrica.verl) and pickles by reference when Ray ships it to another worker; a function
defined in this file would belong to "custom_module", which no other process can import.
`python3 -m rubrica path verl` prints this file's installed, absolute path.
"""

try:
    from rubrica.verl import RubricaError, RubricaUnavailable, compute_score, compute_score_batch, compute_score_sync
except ImportError as err:  # loaded by path in an environment without the package
    raise ImportError(
        "rubrica's Python adapters are not installed in this Python environment "
        f"({err}); run `pip install <rubrica clone>/integrations/python` wherever verl's workers run"
    ) from err

__all__ = ["compute_score", "compute_score_batch", "compute_score_sync", "RubricaError", "RubricaUnavailable"]
