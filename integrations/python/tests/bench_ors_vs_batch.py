"""How much slower TRL's tool loop through `serve --ors` is than the batched reward function.

    cd integrations/python/tests && PYTHONPATH=..:. python3 bench_ors_vs_batch.py [N]

Starts the test stack (a judge double that answers at once), then scores N rollouts two ways
with different prompts (so neither reads the other's cache): rubrica.trl.rubrica_reward — one
POST /v1/rewards for the whole batch — and N ORS episodes one after another (TRL's
environment_factory calls tools one rollout at a time): create_session, /create, /prompt,
/call submit, /delete. Prints seconds per rollout for each. Not a test.
"""

import sys
import time

import stack
from ors_client import OrsClient

import rubrica.trl


def main(n):
    stack.start()
    svgs = stack.rollout_svgs()
    codes = [svgs[i % len(svgs)] + f"<!-- {i} -->" for i in range(n)]
    t0 = time.perf_counter()
    rewards = rubrica.trl.rubrica_reward(
        prompts=["an owl at night"] * n,
        completions=[stack.fenced(c) for c in codes],
        prompt_id=["owl"] * n,
    )
    batch = time.perf_counter() - t0
    assert all(isinstance(r, float) for r in rewards), rewards
    c = OrsClient(stack.INFO["urlOrs"], key=stack.INFO["token"], style="openreward")
    t0 = time.perf_counter()
    for code in codes:
        sid = c.session(task_spec={"prompt_id": "fox"})
        c.request("GET", "/prompt", sid=sid)
        _, out, _, _ = c.call("", sid, "submit", {"code": code})
        assert isinstance(out["output"]["reward"], float), out
        c.close_session(sid)
    ors = time.perf_counter() - t0
    print(f"{n} rollouts: batched /v1/rewards {batch / n * 1000:.1f} ms/rollout, "
          f"ORS one at a time {ors / n * 1000:.1f} ms/rollout ({ors / batch:.1f}x)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 32)
