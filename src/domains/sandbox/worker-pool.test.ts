// The warm pool on real sandboxed processes (bwrap + a line-echoing Python): never more jobs
// than slots at once, jobs served in arrival order, a slot's warm worker reused, a dead
// worker replaced before its slot's next job.
import { afterEach, describe, expect, it } from 'vitest';
import { isFailure } from './line-worker.ts';
import { WorkerPool } from './worker-pool.ts';

// Answers each job after `sleep` seconds with its process's id (a random token: in its own
// pid namespace every sandboxed process has the same pid); `die` exits instead. It speaks
// LineWorker's framing: "<n>\n" + n bytes of job, "<nonce>\n"; answers "<nonce> <json>".
// `extra` answers twice (a line no job waits for); `forge` answers with another nonce.
const ECHO = [
  'import json, os, sys, time',
  'me = os.urandom(8).hex()',
  'def read(n):',
  '    b = b""',
  '    while len(b) < n:',
  '        c = os.read(0, n - len(b))',
  '        if not c: sys.exit(0)',
  '        b += c',
  '    return b',
  'def header():',
  '    b = b""',
  '    while not b.endswith(b"\\n"): b += read(1)',
  '    return int(b)',
  'print("ready", flush=True)',
  'while True:',
  '    job = json.loads(read(header()))',
  '    if job.get("die"): os._exit(3)',
  '    time.sleep(job.get("sleep", 0))',
  '    nonce = read(33)[:-1].decode()',
  '    if job.get("forge"): nonce = "0" * 32',
  '    line = nonce + " " + json.dumps({"n": job["n"], "pid": me})',
  '    print(line, flush=True)',
  '    if job.get("extra"): print(line, flush=True)',
].join('\n');

const pools: WorkerPool[] = [];
const pool = (size: number) => {
  const p = new WorkerPool({
    spec: { argv: ['/usr/bin/python3', '-c', ECHO] },
    size,
    startTimeoutMs: 20_000,
    maxJobsPerWorker: 100,
  });
  pools.push(p);
  return p;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

type Answer = { n: number; pid: string };

describe('WorkerPool', () => {
  it('runs at most `size` jobs at once, in arrival order, on warm workers', async () => {
    const p = pool(2);
    await p.warm();
    const finished: number[] = [];
    const jobs = [0, 1, 2, 3, 4].map((n) =>
      p.run({ n, sleep: 0.15 }, 10_000).then((r) => {
        finished.push(n);
        return r as Answer;
      }),
    );
    const answers = await Promise.all(jobs);
    expect(answers.map((a) => a.n)).toEqual([0, 1, 2, 3, 4]);
    // Two workers only, both started by warm(): every job reused one of them.
    expect(new Set(answers.map((a) => a.pid)).size).toBe(2);
    // Pairs finish together: jobs 2 and 3 cannot finish before 0 and 1 (they waited).
    expect(finished.indexOf(2)).toBeGreaterThan(finished.indexOf(0));
    expect(finished.indexOf(2)).toBeGreaterThan(finished.indexOf(1));
    expect(finished.indexOf(4)).toBeGreaterThan(finished.indexOf(3));
  }, 30_000);

  it('never runs two jobs on one worker at once', async () => {
    const p = pool(1);
    const t0 = performance.now();
    const [a, b] = (await Promise.all([
      p.run({ n: 1, sleep: 0.2 }, 10_000),
      p.run({ n: 2, sleep: 0.2 }, 10_000),
    ])) as Answer[];
    expect(a!.pid).toBe(b!.pid);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(390);
  }, 30_000);

  it('returns a dead worker as a failure and replaces it for the next job', async () => {
    const p = pool(1);
    const first = (await p.run({ n: 1 }, 10_000)) as Answer;
    const died = await p.run({ n: 2, die: true }, 10_000);
    expect(isFailure(died) && died.failed).toBe('died');
    const next = (await p.run({ n: 3 }, 10_000)) as Answer;
    expect(next.n).toBe(3);
    expect(next.pid).not.toBe(first.pid);
  }, 30_000);

  it('takes no line as an answer unless it carries the job’s nonce; an extra line ends the worker', async () => {
    const p = pool(1);
    const first = (await p.run({ n: 1 }, 10_000)) as Answer;
    const forged = await p.run({ n: 2, forge: true }, 10_000);
    expect(isFailure(forged) && forged.failed).toBe('protocol');
    const second = (await p.run({ n: 3 }, 10_000)) as Answer;
    expect(second.n).toBe(3);
    expect(second.pid).not.toBe(first.pid);
    // Its own answer is taken; the extra line after it kills the worker, so the next job
    // gets its own answer from a fresh one, never the extra line.
    expect(((await p.run({ n: 4, extra: true }, 10_000)) as Answer).n).toBe(4);
    await new Promise((r) => setTimeout(r, 200));
    const next = (await p.run({ n: 5 }, 10_000)) as Answer;
    expect(next.n).toBe(5);
    expect(next.pid).not.toBe(second.pid);
  }, 30_000);

  it('refuses jobs once closed', async () => {
    const p = pool(1);
    await p.close();
    await expect(p.run({ n: 1 }, 1000)).rejects.toMatchObject({ code: 'pool_closed' });
  });
});
