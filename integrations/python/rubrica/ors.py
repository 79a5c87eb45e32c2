"""The reward function for TRL's OpenReward (ORS) environments backed by `rubrica serve --ors`.

    from trl.experimental.openreward import OpenRewardSpec
    from rubrica.trl import ors_reward
    spec = OpenRewardSpec("http://127.0.0.1:8787")
    trainer = GRPOTrainer(..., train_dataset=spec.train_dataset,
                          environment_factory=spec.environment_factory, reward_funcs=[ors_reward])

TRL's own default (`spec.reward_funcs`, trl/experimental/openreward/_spec.py at f2cd577) reads
`env.reward`, which starts at 0.0 and is only replaced by a non-null step reward: a grader
fault, which rubrica answers as `reward: null` with `metadata.grader_error`, would become a
silent 0.0 and train the policy against the judge's outages. `ors_reward` returns None for it
instead, so TRL leaves the rollout out of its group's baseline (TRL >= 1.6.0 with every reward
function None; see rubrica.trl for older TRL).

Per rollout (TRL's `_RolloutEnvironment`: `rewards` and `metadata` per tool call, `last_output`):
  * the last `submit` result decides: its reward (0.0 for an unscoreable drawing, a real zero
    the policy earned), or None when it says `grader_error`;
  * no submit result: 0.0 — the policy never submitted, its fault — unless the last call
    failed in transport (the service unreachable, the session lost), which is None.
"""

__all__ = ["ors_reward", "ors_reward_of"]

# rubrica's own ok:false answers (unknown tool, invalid input) start with this: the policy's
# mistake, shown to it as tool output. Any other "Error: …" TRL records is the client's.
_RUBRICA_REFUSAL = "rubrica: "


def _submit_results(env):
    metadata = list(getattr(env, "metadata", None) or [])
    rewards = list(getattr(env, "rewards", None) or [])
    rewards += [None] * (len(metadata) - len(rewards))
    return [
        (md, r)
        for md, r in zip(metadata, rewards)
        if isinstance(md, dict) and ("rubrica_status" in md or md.get("grader_error"))
    ]


def ors_reward_of(env):
    """One rollout's reward: a float, or None for a grader fault or a lost connection."""
    results = _submit_results(env)
    if results:
        md, reward = results[-1]
        if md.get("grader_error") or reward is None:
            return None
        return float(reward)
    rewards = list(getattr(env, "rewards", None) or [])
    metadata = list(getattr(env, "metadata", None) or [])
    last_output = str(getattr(env, "last_output", "") or "")
    failed_call = rewards and rewards[-1] is None and (not metadata or metadata[-1] is None)
    if failed_call and last_output.startswith("Error:") and _RUBRICA_REFUSAL not in last_output:
        return None
    return 0.0


def ors_reward(environments=None, **_kwargs):
    """TRL reward function: one reward (or None) per rollout environment."""
    if environments is None:
        raise TypeError(
            "ors_reward needs TRL's environments= (GRPOTrainer with environment_factory=OpenRewardSpec(...).environment_factory)"
        )
    return [ors_reward_of(env) for env in environments]
