"""The name code used before the package existed: `from rubrica_client import RubricaClient`.

Kept so such code runs unchanged once the package is installed; new code imports rubrica.client.
"""

from rubrica.client import RubricaClient, RubricaError, RubricaUnavailable, default_client

__all__ = ["RubricaClient", "RubricaError", "RubricaUnavailable", "default_client"]
