"""The base classes RubricaJudge builds on: verifiers' own where it is installed, else a stand-in.

Read from PrimeIntellect-ai/verifiers v0.2.0, commit 6c64ce6:
  * verifiers/v1/judge.py: `class Judge(Generic[ParsedT, ConfigT])`, constructed as
    `Judge(config=None)` (None builds the config type named in the class's generic arguments,
    `judge_config_cls`); `async score(task, trace) -> float | Mapping[str, float]` is the plugin
    hook; `reward_name` is `config.name`, else the id's package name, else the class name
    without "Judge" in snake case. `JudgeConfig` is a pydantic model with `id`, `name`,
    `weight` (and client fields an LLM judge uses; this one calls no LLM itself).
  * verifiers/v1/loaders.py: a plugged judge is found by importing its module and taking the
    one `Judge` subclass exported through `__all__` (`_plugin_class`), then `cls(config)`.

verifiers needs Python >= 3.10, pydantic and an OpenAI client, none of which a trainer's rubrica
tooling or this project's CI installs; importing it must therefore be optional. Where it is
importable, RubricaJudge subclasses the real `Judge` (so the hub loader's issubclass test
passes); elsewhere it subclasses the stand-in below, which has the same constructor, the same
`reward_name` rule and the same config defaults, and nothing else.
"""

import re
from typing import Generic, TypeVar

__all__ = ["HAVE_VERIFIERS", "Judge", "JudgeConfig"]

try:  # the real classes: verifiers/v1/judge.py at 6c64ce6
    from verifiers.v1.judge import Judge, JudgeConfig  # type: ignore[import-not-found]

    HAVE_VERIFIERS = True
except ImportError:
    HAVE_VERIFIERS = False

    class JudgeConfig:
        """Stand-in for the pydantic JudgeConfig: annotated class defaults, keyword overrides."""

        id: str = ""
        name: str = ""
        weight: float = 1.0

        def __init__(self, **values):
            fields = self.field_names()
            unknown = sorted(set(values) - fields)
            if unknown:  # pydantic's strict configs refuse unknown keys too
                raise ValueError(f"{type(self).__name__}: unknown field(s) {unknown}")
            for key in fields:
                setattr(self, key, values.get(key, getattr(type(self), key)))

        @classmethod
        def field_names(cls):
            names = set()
            for klass in cls.__mro__:
                names.update(getattr(klass, "__annotations__", {}))
            return names

        @classmethod
        def model_validate(cls, data):
            return cls(**dict(data))

        def model_dump(self):
            return {key: getattr(self, key) for key in sorted(self.field_names())}

    ParsedT = TypeVar("ParsedT")
    ConfigT = TypeVar("ConfigT")

    def _config_class(cls):
        # The JudgeConfig subclass named in a `Judge[..., Config]` base, as judge_config_cls finds it.
        for klass in cls.__mro__:
            for base in getattr(klass, "__orig_bases__", ()):
                for arg in getattr(base, "__args__", ()):
                    if isinstance(arg, type) and issubclass(arg, JudgeConfig):
                        return arg
        return JudgeConfig

    class Judge(Generic[ParsedT, ConfigT]):
        """Stand-in for verifiers.v1.judge.Judge: the constructor and reward_name, no LLM calls."""

        def __init__(self, config=None):
            self.config = config if config is not None else _config_class(type(self))()

        @property
        def reward_name(self):
            stem = type(self).__name__
            stem = stem[: -len("Judge")] if stem.endswith("Judge") else stem
            fallback = re.sub(r"(?<!^)(?=[A-Z])", "_", stem).lower()
            ident = self.config.id.split("/", 1)[-1].split("@", 1)[0] if self.config.id else ""
            return self.config.name or ident or fallback or "judge"

        async def score(self, task, trace):
            raise NotImplementedError(f"{type(self).__name__} implements no `score`")
