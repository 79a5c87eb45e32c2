// The crash case of issue 26: a replica SIGKILLed mid-step must lose no rollout and have no
// picture judged twice. Two real `rubrica serve` replicas share a real Redis (answer cache
// and judge budget) behind a real nginx (examples/scale/nginx.conf); the judge is the model
// double, 800 ms a call, counting its calls per picture. One batch of 16 rollouts goes
// through nginx; once the replica holding it has calls out at the judge it is SIGKILLed, and
// nginx resends the batch to the other replica.
//  - With `rubrica judge-proxy` between the replicas and the judge, the calls the dead replica
//    had in flight run on in the proxy; the other replica's byte-identical requests join them
//    or read their kept answers: every picture is judged exactly once.
//  - The control, replicas pointed at the judge directly, re-judges what was in flight (≥ 1),
//    so the first assertion can fail.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  judgeByImage,
  postJson,
  type ServeProcess,
  spawnJudgeProxy,
  spawnServe,
  tempDir,
  writeRubrics,
} from '../server/support.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { type DoubleRequest, startModelDouble } from '../support/model-double.ts';
import { startNginx } from '../support/nginx.ts';
import { type RedisProcess, startRedis } from '../support/redis-server.ts';

const LATENCY_MS = 800;
const icons = fluentEmoji(32);
const completion = (svg: string) => `\`\`\`svg\n${svg}\n\`\`\``;

let redis: RedisProcess;
let double: Awaited<ReturnType<typeof startModelDouble>>;
let rubrics: string;
const byImage = new Map<string, number>();
const children: ChildProcess[] = [];

beforeAll(async () => {
  redis = await startRedis();
  const answer = judgeByImage();
  double = await startModelDouble({
    handler: (req: DoubleRequest) => {
      // The start-up check and /readyz probe (models/check.ts) are not judge calls.
      if (req.text.includes('{"colour"')) return { content: '{"colour": "red"}' };
      const img = req.images[0] ?? '';
      if (img) byImage.set(img, (byImage.get(img) ?? 0) + 1);
      return { ...answer(req), delayMs: LATENCY_MS };
    },
  });
  rubrics = writeRubrics(tempDir('judge-proxy-crash'), [['fox', 'a red fox']]);
}, 60_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await double?.close();
  await redis?.stop();
});

/** Rollouts being scored on a replica now (its /metrics gauge). */
async function inFlightOn(r: ServeProcess): Promise<number> {
  const text = await (await fetch(`${r.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('rubrica_in_flight_rollouts '));
  return Number(line?.split(' ')[1] ?? 0);
}

const calls = () => [...byImage.values()].reduce((s, n) => s + n, 0);
type Results = { results: Array<{ id: string; status: string }> };

/**
 * One batch of `items` through nginx in front of two replicas judging at `judgeUrl`; the
 * replica holding it is SIGKILLed once it has judged some and has calls out. Returns the
 * rollouts lost, the pictures judged twice, and the judge calls out at the kill.
 */
async function crashStep(judgeUrl: string, from: number) {
  const args = [
    '--rubrics',
    rubrics,
    '--judge',
    'openai-compatible:judge',
    '--judge-base-url',
    judgeUrl,
    '--cache',
    redis.url,
    '--concurrency',
    '4',
    '--render-workers',
    '1',
  ];
  const replicas = [await spawnServe(args), await spawnServe(args)];
  for (const r of replicas) children.push(r.child);
  const lb = await startNginx(replicas.map((r) => new URL(r.url).host));
  try {
    const items = icons.slice(from, from + 16).map((ic, i) => ({
      id: `r${from + i}`,
      prompt_id: 'fox',
      completion: completion(ic.svg),
    }));
    const before = new Map(byImage);
    const callsBefore = calls();
    const running = postJson(`${lb.url}/v1/rewards`, { items });
    // Some answered (and in the shared cache), the next ones out at the judge.
    const t0 = Date.now();
    while ((calls() - callsBefore < 6 || double.inFlight < 1) && Date.now() - t0 < 60_000)
      await new Promise((r) => setTimeout(r, 10));
    const held = await Promise.all(replicas.map(inFlightOn));
    const victim = replicas[held[0]! > 0 ? 0 : 1]!;
    const cut = double.inFlight;
    victim.child.kill('SIGKILL');
    const res = await running;
    expect(res.status, JSON.stringify(res.json).slice(0, 300)).toBe(200);
    const results = (res.json as Results).results;
    const perPicture = [...byImage.entries()]
      .filter(([k, n]) => n > (before.get(k) ?? 0))
      .map(([k, n]) => n - (before.get(k) ?? 0));
    return {
      lost: items.length - results.filter((r) => r.status === 'ok').length,
      pictures: perPicture.length,
      twice: perPicture.filter((n) => n > 1).length,
      cut,
      held,
    };
  } finally {
    for (const r of replicas) if (r.child.exitCode === null) r.child.kill('SIGTERM');
    await Promise.all(replicas.map((r) => r.exited));
    await lb.stop();
  }
}

describe('a replica SIGKILLed mid-step', () => {
  it('behind rubrica judge-proxy: 0 rollouts lost, every picture judged exactly once', async () => {
    const proxy = await spawnJudgeProxy([
      '--upstream',
      double.url,
      '--cache',
      redis.url,
      '--concurrency',
      '8',
    ]);
    children.push(proxy.child);
    const r = await crashStep(`${proxy.url}/v1`, 0);
    expect(r.held.some((n) => n > 0)).toBe(true);
    expect(r.cut).toBeGreaterThanOrEqual(1); // calls were out when the replica died
    expect(r.lost).toBe(0);
    expect(r.pictures).toBe(16);
    expect(r.twice).toBe(0);
    // The retry was answered by the calls the dead replica left behind (joined or kept).
    const metrics = await (await fetch(`${proxy.url}/metrics`)).text();
    const saved = metrics
      .split('\n')
      .filter((l) => /^rubrica_proxy_(coalesced_total|cache_hits_total)/.test(l))
      .reduce((s, l) => s + Number(l.split(' ').at(-1)), 0);
    expect(saved).toBeGreaterThanOrEqual(1);
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited).toBe(0);
  }, 180_000);

  it('control, replicas straight at the judge: what was in flight is judged again', async () => {
    const r = await crashStep(double.url, 16);
    expect(r.cut).toBeGreaterThanOrEqual(1);
    expect(r.lost).toBe(0);
    expect(r.pictures).toBe(16);
    expect(r.twice).toBeGreaterThanOrEqual(1);
  }, 180_000);
});
