"""What the judge tests share: the live rubrica stack, and the task/trace a verifiers rollout hands a judge.

The stack is integrations/python/tests/stack.py (a loopback judge double and two real
`rubrica serve` processes, started once per test run), loaded by path: it imports the
installed `rubrica` package, which scripts/verifiers-judge.sh installs beside rubrica_judge.

TaskDouble and TraceDouble carry only the attributes RubricaJudge reads, as verifiers defines
them at 6c64ce6 (verifiers/v1/task.py TaskData.prompt_text; verifiers/v1/trace.py
Trace.last_reply, Trace.transcript, Trace.record_metric, Trace.metrics).
"""

import importlib.util
import os
import socket

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
_STACK_PATH = os.path.join(REPO, "integrations", "python", "tests", "stack.py")
_stack = None


def stack():
    """The started stack module (stack.INFO has url, token, svgA, ...)."""
    global _stack
    if _stack is None:
        spec = importlib.util.spec_from_file_location("rubrica_adapter_stack", _STACK_PATH)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _stack = module
    _stack.start()
    return _stack


def closed_port():
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TaskDouble:
    def __init__(self, prompt_text, prompt_id=None):
        self.prompt_text = prompt_text
        if prompt_id is not None:
            self.prompt_id = prompt_id


class TraceDouble:
    def __init__(self, reply, transcript=None):
        self.last_reply = reply
        self.transcript = transcript if transcript is not None else f"[user]\n...\n\n[assistant]\n{reply}"
        self.metrics = {}

    def record_metric(self, name, value):
        self.metrics[name] = float(value)
