"""OpenRLHF's entry file for rubrica: `--remote_rm_url` may point here.

OpenRLHF loads this file by path and hands `reward_func` to Ray (`ray.remote(reward_func)`),
which pickles it for its workers. `reward_func` is imported from the installed `rubrica`
package, so it pickles by reference (rubrica.openrlhf.reward_func) and every worker imports
it by name. `python3 -m rubrica path openrlhf` prints this file's installed, absolute path.
"""

try:
    from rubrica.openrlhf import RubricaError, RubricaUnavailable, reward_func
except ImportError as err:  # loaded by path in an environment without the package
    raise ImportError(
        "rubrica's Python adapters are not installed in this Python environment "
        f"({err}); run `pip install <rubrica clone>/integrations/python` wherever OpenRLHF's workers run"
    ) from err

__all__ = ["reward_func", "RubricaError", "RubricaUnavailable"]
