"""The package shape verifiers' plugin loader expects of a judge, reimplemented from its source.

Written from PrimeIntellect-ai/verifiers v0.2.0, commit 6c64ce6 (verifiers does not install
here, so its steps are restated, not imported):
  * verifiers/v1/utils/install.py + verifiers/utils/install_utils.py: a hub id
    `org/name[@version]` is installed from the Environments Hub, and the module imported is the
    id's name with org and version stripped, hyphens -> underscores, lower-cased.
  * verifiers/v1/loaders.py `_import_plugin` / `_plugin_class`: the module must define
    `__all__`, and exactly one name in it must be a subclass of `Judge` other than `Judge`
    itself; `load_judge` then builds it as `cls(config)`.
  * verifiers/v1/judge.py `judge_config_cls`: the config type is the JudgeConfig subclass in the
    class's generic arguments; `resolve_judges` validates a TOML entry against it.
  * verifiers/v1/task.py `_requires_runtime`: a `score` with a required `runtime` parameter is
    skipped when scoring runs without a runtime; Task.score calls `score(task=, trace=)`.
"""

import importlib
import inspect
import os
import re
import unittest

import rubrica_judge
from rubrica_judge.base import HAVE_VERIFIERS, Judge, JudgeConfig

HERE = os.path.dirname(os.path.abspath(__file__))
PYPROJECT = os.path.join(os.path.dirname(HERE), "pyproject.toml")


def hub_module_name(env_id):
    """install_utils.parse_env_id + normalize_package_name, as the loader applies them."""
    name = env_id.split("/", 1)[1] if "/" in env_id and not env_id.startswith(("./", "/")) else env_id
    return name.split("@", 1)[0].replace("-", "_").lower()


def plugin_class(module, base):
    """loaders._plugin_class: the one exported subclass of `base`, or the loader's error."""
    names = getattr(module, "__all__", None)
    if names is None:
        raise AttributeError("no __all__")
    matches = [
        obj
        for name in names
        if isinstance(obj := getattr(module, name, None), type) and issubclass(obj, base) and obj is not base
    ]
    if len(matches) != 1:
        raise TypeError(f"{len(matches)} Judge subclasses exported: {matches}")
    return matches[0]


def config_class(cls):
    for klass in cls.__mro__:
        for generic in getattr(klass, "__orig_bases__", ()):
            for arg in getattr(generic, "__args__", ()):
                if isinstance(arg, type) and issubclass(arg, JudgeConfig):
                    return arg
    return JudgeConfig


class HubLoaderShape(unittest.TestCase):
    def test_the_hub_id_of_the_project_name_imports_this_package(self):
        with open(PYPROJECT, encoding="utf-8") as f:
            name = re.search(r'^name = "([^"]+)"', f.read(), re.M).group(1)
        module = importlib.import_module(hub_module_name(f"some-org/{name}@0.1.0"))
        self.assertIs(module, rubrica_judge)

    def test_exactly_one_judge_subclass_is_exported(self):
        self.assertIs(plugin_class(rubrica_judge, Judge), rubrica_judge.RubricaJudge)

    def test_the_base_is_verifiers_judge_when_importable(self):
        try:
            from verifiers.v1.judge import Judge as Real  # noqa: F401
        except ImportError:
            self.assertFalse(HAVE_VERIFIERS)
            self.assertEqual(Judge.__module__, "rubrica_judge.base")
        else:
            self.assertTrue(HAVE_VERIFIERS)
            self.assertTrue(issubclass(rubrica_judge.RubricaJudge, Real))

    def test_config_type_resolves_from_the_generic_arguments_and_validates_an_entry(self):
        cls = config_class(rubrica_judge.RubricaJudge)
        self.assertIs(cls, rubrica_judge.RubricaJudgeConfig)
        entry = {"id": "some-org/rubrica-judge", "rubrica_url": "http://127.0.0.1:8787", "reward": "ruler", "weight": 2.0}
        config = cls.model_validate(entry)
        judge = rubrica_judge.RubricaJudge(config)  # load_judge: cls(config)
        self.assertEqual(judge.config.reward, "ruler")
        self.assertEqual(judge.config.weight, 2.0)
        self.assertEqual(judge.reward_name, "rubrica-judge")  # judge_key: the id's package name

    def test_built_without_a_config_uses_the_config_defaults(self):
        judge = rubrica_judge.RubricaJudge()
        self.assertIsInstance(judge.config, rubrica_judge.RubricaJudgeConfig)
        self.assertEqual(judge.config.token_var, "RUBRICA_TOKEN")
        self.assertEqual(judge.reward_name, "rubrica")

    def test_config_fields_do_not_shadow_the_llm_client_fields(self):
        # verifiers' JudgeConfig carries base_url/api_key_var/headers/model/sampling/prompt for
        # an LLM endpoint (verifiers/v1/clients/config.py, judge.py); ours must not reuse them.
        ours = set(rubrica_judge.RubricaJudgeConfig.__annotations__)
        self.assertFalse(ours & {"base_url", "api_key_var", "headers", "model", "sampling", "prompt", "prompt_file"})

    def test_score_is_a_coroutine_taking_task_and_trace_without_runtime(self):
        score = rubrica_judge.RubricaJudge().score
        self.assertTrue(inspect.iscoroutinefunction(score))
        params = inspect.signature(score).parameters
        self.assertEqual(list(params), ["task", "trace"])
        self.assertNotIn("runtime", params)


if __name__ == "__main__":
    unittest.main()
