"""slime reward functions backed by the rubrica reward service (standard library only).

slime loads `--custom-rm-path` with importlib by dotted name (slime.utils.misc.load_function)
and awaits it (slime/rollout/rm_hub/__init__.py):

    --custom-rm-path rubrica.slime.custom_rm                 # per sample: custom_rm(args, sample)
    --custom-rm-path rubrica.slime.custom_rm --group-rm      # per group:  custom_rm(args, samples)

Without --group-rm slime awaits custom_rm(args, sample) as each sample finishes generating (and
custom_rm(args, samples) for the samples a custom generate function fans out); with --group-rm
it awaits custom_rm(args, group) once per GRPO group, where the group is a list of Samples (or
of lists of Samples). The one function here takes all three shapes: a Sample gives a float, a
list gives a list of the same nesting. Per-sample calls that arrive within RUBRICA_WINDOW_MS
leave as one request (rubrica.batcher).

Reads sample.response (the completion), sample.label (the rubric id, as `rubrica export`
writes it), sample.prompt (text or chat messages: the last user message) and
sample.metadata["prompt_id"] when there is no label. The reward is a float (slime's default
`--reward-key` none); the flat fields (rubrica.records: status flags, comp_<key>) go to
sample.metadata["rubrica"] for your logging or a custom reward post-process.

A grader fault is never trained on as a measurement: the sample gets remove_sample = True
(slime masks its loss) and, since slime still normalises it with its group, the mean reward
of its measured group-mates when they were scored in the same request — always the case with
--group-rm, which is therefore the recommended setting — else RUBRICA_FAULT_SCORE (0.0).
A service unreachable after retries is treated the same (reason "unreachable"), or raises
with RUBRICA_ON_UNREACHABLE=raise.
"""

import asyncio
import itertools
import os

from rubrica.batcher import batcher_for
from rubrica.client import RubricaError, RubricaUnavailable, default_client
from rubrica.components import configured_kind
from rubrica.records import fault_fields, flat_fields

__all__ = ["custom_rm", "group_rm", "RubricaError", "RubricaUnavailable"]

_ids = itertools.count()


def _text(prompt):
    if isinstance(prompt, str):
        return prompt
    if isinstance(prompt, (list, tuple)):
        for msg in reversed(list(prompt)):
            if isinstance(msg, dict) and msg.get("role") == "user":
                content = msg.get("content")
                return content if isinstance(content, str) else None
    return None


def _item(sample):
    metadata = getattr(sample, "metadata", None)
    metadata = metadata if isinstance(metadata, dict) else {}
    label = getattr(sample, "label", None)
    pid = label if label not in (None, "") else metadata.get("prompt_id")
    return {
        "id": f"slime-{os.getpid()}-{next(_ids)}",
        "prompt_id": None if pid in (None, "") else str(pid),
        "prompt": _text(getattr(sample, "prompt", None)),
        "completion": str(getattr(sample, "response", "") or ""),
    }


def _flatten(samples):
    flat = []
    for s in samples:
        if isinstance(s, (list, tuple)):
            flat.extend(_flatten(s))
        else:
            flat.append(s)
    return flat


def _nest(samples, values):
    it = iter(values)

    def build(seq):
        return [build(s) if isinstance(s, (list, tuple)) else next(it) for s in seq]

    return build(samples)


def _apply(sample, fields):
    metadata = getattr(sample, "metadata", None)
    if isinstance(metadata, dict):
        metadata["rubrica"] = fields
    if fields["grader_error"]:
        sample.remove_sample = True
    return float(fields["score"])


async def custom_rm(args, sample, reward=None, client=None, **kwargs):
    """slime custom reward: a Sample -> float; a (nested) list of Samples -> the same nesting."""
    kind, explicit = configured_kind(reward)
    batcher = batcher_for(client or default_client(), kind, kind if explicit else None)
    samples = _flatten(sample) if isinstance(sample, (list, tuple)) else [sample]
    futures = batcher.submit_many([_item(s) for s in samples])
    outcomes = await asyncio.gather(*(asyncio.wrap_future(f) for f in futures), return_exceptions=True)
    values = []
    for s, outcome in zip(samples, outcomes):
        if isinstance(outcome, RubricaUnavailable):
            if (os.environ.get("RUBRICA_ON_UNREACHABLE") or "fault").strip() == "raise":
                raise outcome
            fields = fault_fields(kind)
        elif isinstance(outcome, BaseException):
            raise outcome
        else:
            fields = flat_fields(outcome, kind)
        values.append(_apply(s, fields))
    if isinstance(sample, (list, tuple)):
        return _nest(sample, values)
    return values[0]


# The same function under the name a --group-rm configuration reads best with.
group_rm = custom_rm
