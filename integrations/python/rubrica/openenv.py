"""A client for `rubrica serve --openenv` and a ready TRL environment class (standard library).

    from rubrica.openenv import RubricaEnv, RubricaTrlEnv
    env = RubricaEnv("http://127.0.0.1:8787")          # or http://host:port/<token> with --token
    obs = env.reset(prompt_id="fox")                    # {"observation": {...}, "reward": None, "done": False}
    res = env.step("<svg …>")                           # reward float, or None for a grader fault

TRL's GRPOTrainer(environment_factory=RubricaTrlEnv, reward_funcs=[rubrica_openenv_reward]):
one RubricaTrlEnv per rollout; `reset(**row)` gets the dataset row (its `prompt_id` column
names the task) and returns the task text; the policy calls the `submit(code)` tool;
`get_reward()` is the reward, or None for a grader fault or a deadline — which TRL then leaves
out of the group baseline — never a silent 0.

The protocol (huggingface/OpenEnv src/openenv/core/env_client.py at 385de5e): one JSON message,
one answer; `{"type": "error", "data": {"code", "message"}}` on failure. The client sends no
headers, so a token travels in the path: the base URL `http://host:port/<token>`.
"""

import urllib.parse

from rubrica.errors import RubricaError, RubricaUnavailable
from rubrica.websocket import WebSocket

__all__ = ["RubricaEnv", "RubricaTrlEnv", "OpenEnvError", "rubrica_openenv_reward"]


class OpenEnvError(RubricaError):
    """The server answered a message with an error (its `code`: VALIDATION_ERROR, …)."""


def _ws_url(base_url):
    parts = urllib.parse.urlsplit(base_url.rstrip("/"))
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    return urllib.parse.urlunsplit((scheme, parts.netloc, parts.path + "/ws", "", ""))


class RubricaEnv:
    """One OpenEnv episode connection; answers are dicts {observation, reward, done}."""

    def __init__(self, base_url=None, timeout=60.0):
        import os

        base_url = base_url or os.environ.get("RUBRICA_OPENENV_URL", "http://127.0.0.1:8787")
        self.ws = WebSocket(_ws_url(base_url), timeout=timeout)

    def _call(self, message):
        self.ws.send_json(message)
        answer = self.ws.recv_json()
        if answer.get("type") == "error":
            data = answer.get("data") or {}
            raise OpenEnvError(data.get("message", "error"), code=data.get("code"))
        return answer.get("data") or {}

    def reset(self, **kwargs):
        return self._call({"type": "reset", "data": kwargs})

    def step(self, code, tool="submit"):
        return self._call({"type": "step", "data": {"code": code, "tool": tool}})

    def state(self):
        return self._call({"type": "state"})

    def close(self):
        try:
            self.ws.send_json({"type": "close"})
        except RubricaError:
            pass
        self.ws.close()


class RubricaTrlEnv:
    """TRL's environment_factory class: reset(**row) -> str, submit(code) -> str, get_reward()."""

    base_url = None  # set RUBRICA_OPENENV_URL, or subclass and set this

    def __init__(self):
        self._env = None
        self.reward = None
        self.observation = None

    def reset(self, **row):
        """Start the rollout's episode on the row's task (its `prompt_id` column)."""
        if self._env is None:
            self._env = RubricaEnv(self.base_url)
        # Until a submission reaches the grader, the rollout earned 0 (it did not submit).
        self.reward, self.observation = 0.0, None
        task = {k: row[k] for k in ("prompt_id", "split", "index") if k in row}
        first = self._env.reset(**task)
        return first["observation"].get("instructions", "")

    def submit(self, code: str) -> str:
        """Submit the complete drawing code to be scored.

        Args:
            code: the complete code of the drawing (for example one <svg> document)
        """
        try:
            result = self._env.step(code)
        except (OpenEnvError, RubricaUnavailable, TimeoutError) as err:
            self.reward, self.observation = None, None
            return f"The grader could not score this: {err}"
        self.observation = result.get("observation") or {}
        self.reward = result.get("reward")
        if self.reward is None:
            return "The grader could not score this submission (not your fault)."
        return f"Scored {self.reward:.3f} ({self.observation.get('status')})."

    def get_reward(self):
        """The reward: 0.0 with no submission, None for a grader fault, a deadline or a submission
        that never reached the grader."""
        return self.reward


def rubrica_openenv_reward(environments, **_kwargs):
    """TRL reward function over RubricaTrlEnv environments (None: left out of the baseline)."""
    return [env.get_reward() for env in environments]
