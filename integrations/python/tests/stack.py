"""The live rubrica service every test module here runs against, started once per test run.

test/support/adapter-stack.ts (from this clone) starts a loopback judge double and two real
`rubrica serve` processes guarded by a token — default reward "ruler" (url) and "universal"
(urlUniversal) — with rubrics "fox", "owl" and "fail" (whose prompt makes the judge fail),
and writes the SVG rollouts the tests send. It needs node and the clone's node_modules.
`start()` is idempotent; the stack is stopped when the test process exits, and a serve that
does not shut down cleanly fails the run (exit status 1).
"""

import atexit
import json
import os
import select
import subprocess
import sys
import tempfile
import time

import rubrica.client

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
STACK = os.path.join("test", "support", "adapter-stack.ts")

_proc = None
_log = None
_failed = None
INFO = {}


def _first_line(proc, timeout):
    """The helper's first stdout line (its JSON), or None when it died or took too long."""
    buf = b""
    deadline = time.monotonic() + timeout
    while b"\n" not in buf:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([proc.stdout], [], [], left)[0]:
            return None
        chunk = os.read(proc.stdout.fileno(), 65536)
        if not chunk:
            return None
        buf += chunk
    return buf.split(b"\n", 1)[0].decode("utf-8")


def start():
    """Start the stack (once) and point RUBRICA_URL / RUBRICA_TOKEN at it; returns its info."""
    global _proc, _log, _failed
    if _failed is not None:  # every module that needs the stack fails with the same reason
        raise RuntimeError(_failed)
    if _proc is None:
        if not os.path.exists(os.path.join(REPO, STACK)):
            raise RuntimeError(f"{STACK} not found under {REPO}: run these tests from a rubrica clone")
        _log = tempfile.TemporaryFile()
        _proc = subprocess.Popen(
            ["node", "--import", "tsx", STACK], cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=_log
        )
        line = _first_line(_proc, timeout=240)
        if line is None:
            _proc.kill()
            _proc.wait()
            _log.seek(0)
            _failed = "adapter-stack.ts did not start:\n" + _log.read().decode("utf-8", "replace")
            raise RuntimeError(_failed)
        INFO.update(json.loads(line))
        atexit.register(_stop)
    # The adapters read their configuration from the environment, as in a trainer's worker.
    os.environ["RUBRICA_URL"] = INFO["url"]
    os.environ["RUBRICA_TOKEN"] = INFO["token"]
    for name in ("RUBRICA_REWARD", "RUBRICA_TRL_FAULT", "RUBRICA_FAULT_SCORE", "RUBRICA_ON_UNREACHABLE"):
        os.environ.pop(name, None)
    rubrica.client.reset_default_client()  # a client made earlier would carry another environment
    return INFO


def _stop():
    _proc.stdin.close()
    try:
        code = _proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        _proc.kill()
        code = _proc.wait()
    _log.seek(0)
    log = _log.read().decode("utf-8", "replace")
    if code != 0:
        sys.stderr.write(f"rubrica serve did not shut down cleanly (exit {code}):\n{log}\n")
        sys.stderr.flush()
        os._exit(1)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def fenced(svg):
    return "Here it is:\n```svg\n" + svg + "\n```"


def rollout_svgs():
    """The 16 rollout SVGs of the rhythm tests, in name order."""
    d = INFO["svgDir"]
    return [read(os.path.join(d, name)) for name in sorted(os.listdir(d))]


def metric(name, labels, url=None):
    """One counter of the service's /metrics (summed over series whose labels include `labels`)."""
    client = rubrica.client.RubricaClient(url=url or INFO["url"], token=INFO["token"], retries=0)
    answer = client.connection.request("GET", "/metrics")
    client.close()
    total = 0.0
    for line in answer.body.decode("utf-8").splitlines():
        if not line.startswith(name + "{"):
            continue
        head, value = line.rsplit(" ", 1)
        if all(f'{k}="{v}"' in head for k, v in labels.items()):
            total += float(value)
    return total
