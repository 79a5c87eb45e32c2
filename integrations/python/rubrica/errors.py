"""The errors every rubrica module raises, and reading numbers from the environment.

Kept apart from rubrica.client so that modules below the client (records, batcher) and the
client itself import it without importing each other: the package's imports form no circle.
"""

import os

__all__ = ["RubricaError", "RubricaUnavailable", "env_number"]


class RubricaError(RuntimeError):
    """The rubrica service refused a request (bad request, auth) or answered nonsense."""

    def __init__(self, message, status=None, code=None):
        super().__init__(message)
        self.status = status
        self.code = code


class RubricaUnavailable(RubricaError):
    """The rubrica service could not be reached after every retry (or before the deadline)."""


def env_number(name, default, cast):
    """os.environ[name] as `cast`, `default` when unset or blank; RubricaError when not a number."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return cast(raw)
    except ValueError as err:
        raise RubricaError(f"{name}={raw!r} is not a number") from err


