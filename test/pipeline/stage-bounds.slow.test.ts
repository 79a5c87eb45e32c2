// Every stage of one rollout has a time bound that ends in a stable code (issue 38, item 5).
// The walk: for each stage that waits on something outside the event loop, that something is
// replaced by a party that never answers — a judge that keeps the socket open, an image-scorer
// service that does the same, a Redis that accepts and never replies, a render worker and a
// Python zygote stopped with SIGSTOP (a real process that is alive and silent), a page whose
// script never yields — and the rollout must still come back, as a record with the stage's
// code, within the stage's bound plus slack for a loaded machine. Extract, checks and reward
// arithmetic are synchronous and bounded by the input caps (docs/serve.md, "Bounds").
import { execFileSync } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RolloutInput } from '../../src/core/record.ts';
import { createDomainRenderers } from '../../src/domains/renderers.ts';
import { inspectCompletion } from '../../src/inspect/inspect.ts';
import { createRolloutScorer } from '../../src/pipeline/score.ts';
import { createRenderPool } from '../../src/render/pool.ts';
import { createHybridRewarder } from '../../src/reward/hybrid.ts';
import { createHttpScorer } from '../../src/scorers/http-scorer.ts';
import { openAnswerCache } from '../../src/store/open-cache.ts';
import { judgeClient } from '../score/support/fixtures.ts';
import { judgeByImage, tempDir, writeRubrics } from '../server/support.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';

/** A TCP server that accepts every connection and never writes a byte. */
async function silentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** Pids of this process's children whose command line contains `marker`. */
function children(marker: string): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], {
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.includes(marker))
    .map((l) => Number(l.split(/\s+/)[0]));
}

/** Pids of every descendant of this process whose command line contains `marker`. */
function descendants(marker: string): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! }));
  const mine = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const r of rows)
      if (mine.has(r.ppid) && !mine.has(r.pid)) {
        mine.add(r.pid);
        grew = true;
      }
  }
  return rows.filter((r) => mine.has(r.pid) && r.args.includes(marker)).map((r) => r.pid);
}

const SVG =
  '```svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="6" height="6"/></svg>\n```';
const dir = tempDir('stage-bounds');
const rubrics = writeRubrics(dir, [['p', 'a square']]);
const rollout = (
  id: string,
  completion = SVG,
  extra: Partial<RolloutInput> = {},
): RolloutInput => ({
  id,
  prompt_id: 'p',
  prompt: 'a square',
  completion,
  ...extra,
});

/** Runs `work`, returning its result and how long it took. */
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await work();
  return { value, ms: performance.now() - t0 };
}

// Slack over each stage's bound for a 2-core machine shared with other jobs.
const SLACK_MS = 20_000;

let double: ModelDouble;
beforeAll(async () => {
  const answer = judgeByImage();
  double = await startModelDouble({
    handler: (req) => (req.text.includes('NEVER') ? { hang: true } : answer(req)),
  });
});
afterAll(() => double?.close());

/** A scorer over real domain renderers whose jobs time out after 4 s. */
async function domainScorer() {
  const renderer = createRenderPool({ workers: 1 });
  const domains = createDomainRenderers({ svgRenderer: renderer, timeoutMs: 4000 });
  const scorer = await createRolloutScorer({
    rubrics,
    judge: judgeClient(double.url, { maxRetries: 0 }),
    renderer,
    inspect: inspectCompletion,
    cache: false,
    domains,
  });
  const close = async () => {
    await scorer.close();
    await domains.close();
    await renderer.close();
  };
  return { scorer, close };
}

describe('every stage of a rollout ends by its bound with a stable code', () => {
  it('judge call: a judge that never answers is judge_error after --judge-timeout × attempts', async () => {
    const never = writeRubrics(tempDir('stage-bounds-never'), [['n', 'a square NEVER']]);
    const scorer = await createRolloutScorer({
      rubrics: never,
      judge: judgeClient(double.url, { maxRetries: 1, timeoutMs: 1500 }),
      inspect: inspectCompletion,
      cache: false,
    });
    try {
      const { value, ms } = await timed(() =>
        scorer.scoreBatch([rollout('j', SVG, { prompt_id: 'n', prompt: 'a square NEVER' })]),
      );
      expect(value[0]).toMatchObject({ status: 'grader_error', reason: 'judge_error' });
      expect(ms).toBeLessThan(2 * 1500 + SLACK_MS);
    } finally {
      await scorer.close();
    }
  });

  it('image-scorer service: one that never answers is scorer_error after its timeout', async () => {
    const silent = await silentServer();
    const scorer = await createRolloutScorer({
      inspect: inspectCompletion,
      cache: false,
      reward: 'hybrid',
      hybrid: createHybridRewarder({
        aesthetic: createHttpScorer({
          url: `http://127.0.0.1:${silent.port}/score`,
          timeoutMs: 1500,
          retries: 0,
        }),
        lambdas: { semantic: 0 },
      }),
    });
    try {
      const { value, ms } = await timed(() => scorer.scoreBatch([rollout('s')]));
      expect(value[0]).toMatchObject({ status: 'grader_error', reason: 'scorer_error' });
      expect(ms).toBeLessThan(1500 + SLACK_MS);
    } finally {
      await scorer.close();
      await silent.close();
    }
  });

  it('answer cache: a Redis that never replies does not hold the rollout', async () => {
    const silent = await silentServer();
    const cache = openAnswerCache(`redis://127.0.0.1:${silent.port}/0`);
    const scorer = await createRolloutScorer({
      rubrics,
      judge: judgeClient(double.url, { maxRetries: 0, timeoutMs: 5000 }),
      inspect: inspectCompletion,
      cache,
    });
    try {
      const { value, ms } = await timed(() => scorer.scoreBatch([rollout('c')]));
      console.log(
        `stage-bounds: silent Redis cache → ${value[0]!.status} ${value[0]!.reason ?? ''} in ${Math.round(ms)} ms`,
      );
      // The cache's command timeout (1 s) bounds each lookup; the stable code when the cache
      // is the stage that failed is cache_error, and a scored rollout is fine too.
      const rec = value[0]!;
      if (rec.status !== 'ok') expect(rec).toMatchObject({ reason: 'cache_error' });
      expect(ms).toBeLessThan(5000 + SLACK_MS);
    } finally {
      await scorer.close();
      await cache.close();
      await silent.close();
    }
  });

  it('render: a render worker that stops answering is killed at the render timeout (timeout)', async () => {
    const renderer = createRenderPool({ workers: 1, timeoutMs: 2000 });
    try {
      await renderer.render('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>');
      const pids = children('render/worker');
      expect(pids.length).toBeGreaterThan(0);
      for (const pid of pids) process.kill(pid, 'SIGSTOP');
      const scorer = await createRolloutScorer({
        rubrics,
        judge: judgeClient(double.url, { maxRetries: 0 }),
        renderer,
        inspect: inspectCompletion,
        cache: false,
      });
      try {
        const { value, ms } = await timed(() => scorer.scoreBatch([rollout('r')]));
        expect(value[0]).toMatchObject({ status: 'unscoreable', reason: 'timeout' });
        expect(ms).toBeLessThan(2000 + SLACK_MS);
        // The stopped worker was replaced: the next rollout renders and is judged.
        const [next] = await scorer.scoreBatch([rollout('r2')]);
        expect(next!.status).toBe('ok');
      } finally {
        await scorer.close();
      }
    } finally {
      await renderer.close();
    }
  });

  it('sandbox: a Python job whose process stops answering ends at the domain timeout', async () => {
    const { scorer, close } = await domainScorer();
    const py = (body: string) =>
      `\`\`\`python\nimport matplotlib\nmatplotlib.use("Agg")\nimport matplotlib.pyplot as plt\n${body}\nplt.plot([0, 1], [0, 1])\nplt.savefig("out.png")\n\`\`\``;
    try {
      // Warm the pool, then stop every process it started (zygote and helpers).
      const warm = await scorer.scoreRollout(rollout('py0', py(''), { domain: 'python' }));
      expect(warm.inspection?.render?.ok, JSON.stringify(warm.inspection?.render)).toBe(true);
      const pids = descendants('python');
      expect(pids.length).toBeGreaterThan(0);
      for (const pid of pids) process.kill(pid, 'SIGSTOP');
      try {
        const { value, ms } = await timed(() =>
          scorer.scoreRollout(rollout('py1', py('x = 1'), { domain: 'python' })),
        );
        const render = value.inspection?.render;
        expect(render?.ok, JSON.stringify(render)).toBe(false);
        if (render && !render.ok) expect(['timeout', 'sandbox_error']).toContain(render.error.code);
        expect(ms).toBeLessThan(4000 + SLACK_MS);
      } finally {
        for (const pid of pids) {
          try {
            process.kill(pid, 'SIGCONT');
          } catch {
            // already gone: killed by the timeout
          }
        }
      }
    } finally {
      await close();
    }
  });

  it('browser: a page whose script never yields ends at the domain timeout (timeout)', async () => {
    const { scorer, close } = await domainScorer();
    try {
      const page =
        '```html\n<!doctype html><html><body><h1>hi</h1><script>for(;;){}</script></body></html>\n```';
      const { value, ms } = await timed(() =>
        scorer.scoreBatch([rollout('h', page, { domain: 'html' })]),
      );
      expect(value[0]).toMatchObject({ status: 'unscoreable', reason: 'timeout' });
      expect(ms).toBeLessThan(4000 + SLACK_MS);
    } finally {
      await close();
    }
  });
});
