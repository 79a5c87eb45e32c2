"""Reward components (GDPO): the fixed key set of each reward kind, mirrored from the server.

Every score record carries `components`, whose keys are fixed per reward kind and whose
values are weighted contributions that sum to the reward (0 for every key when the record
has no measured reward). The server exposes the same table at GET /v1/components and
src/reward exports it as REWARD_COMPONENT_KEYS; a contract test compares the three.

The kind a trainer adapter expects comes from a keyword argument or RUBRICA_REWARD
(default "ruler"); its keys become `comp_<key>` in flat trainer extras.
"""

import os

__all__ = ["REWARD_COMPONENT_KEYS", "DEFAULT_KIND", "component_keys", "configured_kind", "component_fields"]

REWARD_COMPONENT_KEYS = {
    "ruler": ("semantic", "visual", "style"),
    "universal": ("semantic", "visual", "style"),
    "rubric-s": ("semantic", "visual"),
    "hybrid": ("think", "render", "semantic", "aesthetic"),
    "prisma": ("code", "vision", "holistic"),
    "direct": ("direct",),
}

DEFAULT_KIND = "ruler"


def component_keys(kind):
    """The component keys of `kind`; a clear error for a kind rubrica does not compute."""
    try:
        return REWARD_COMPONENT_KEYS[kind]
    except KeyError:
        known = ", ".join(sorted(REWARD_COMPONENT_KEYS))
        raise ValueError(f"unknown reward kind {kind!r}; rubrica computes: {known}") from None


def configured_kind(kind=None):
    """(kind, explicit): the keyword argument, else RUBRICA_REWARD, else the default."""
    if kind:
        component_keys(kind)
        return kind, True
    env = (os.environ.get("RUBRICA_REWARD") or "").strip()
    if env:
        component_keys(env)
        return env, True
    return DEFAULT_KIND, False


def component_fields(kind):
    """The flat extras names of `kind`'s components: comp_<key>, in table order."""
    return tuple("comp_" + k for k in component_keys(kind))
