// Batch jobs on the judge budget the replicas share: two `rubrica score` processes with
// --cache redis://… --judge-concurrency 3 and a `rubrica serve` replica with --concurrency 3,
// all on one real Redis and one judge (the model double, counting the judge calls it is
// answering at once), never send it more than 3 together. The control: the same two batch
// jobs without --judge-concurrency keep their own limits and do exceed it.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  judgeByImage,
  postJson,
  type ServeProcess,
  spawnServe,
  tempDir,
  writeRubrics,
} from '../server/support.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { type DoubleRequest, startModelDouble } from '../support/model-double.ts';
import { type RedisProcess, startRedis } from '../support/redis-server.ts';

const BIN = new URL('../../bin/rubrica.js', import.meta.url).pathname;
const icons = fluentEmoji(64);
const completion = (svg: string) => `\`\`\`svg\n${svg}\n\`\`\``;
const LIMIT = 3;

let redis: RedisProcess;
let double: Awaited<ReturnType<typeof startModelDouble>>;
let serve: ServeProcess;
let dir: string;
let rubrics: string;
// Judge calls being answered now, and the most at once (start-up checks not counted).
let now = 0;
let peak = 0;
let judged = 0;

beforeAll(async () => {
  redis = await startRedis();
  const answer = judgeByImage();
  double = await startModelDouble({
    handler: (req: DoubleRequest) => {
      if (req.text.includes('{"colour"')) return { content: '{"colour": "red"}' };
      judged += 1;
      now += 1;
      peak = Math.max(peak, now);
      setTimeout(() => {
        now -= 1;
      }, 200);
      return { ...answer(req), delayMs: 200 };
    },
  });
  dir = tempDir('batch-budget');
  rubrics = writeRubrics(dir, [['fox', 'a red fox']]);
  serve = await spawnServe([
    '--rubrics',
    rubrics,
    '--judge',
    'openai-compatible:judge',
    '--judge-base-url',
    double.url,
    '--cache',
    redis.url,
    '--concurrency',
    String(LIMIT),
    '--render-workers',
    '1',
  ]);
}, 60_000);

afterAll(async () => {
  if (serve && serve.child.exitCode === null) serve.child.kill('SIGTERM');
  await serve?.exited;
  await double?.close();
  await redis?.stop();
});

const rollouts = (from: number, n: number, prefix: string) =>
  icons
    .slice(from, from + n)
    .map((ic, i) => ({ id: `${prefix}${i}`, prompt_id: 'fox', completion: completion(ic.svg) }));

/** `rubrica score` over `items` with the shared Redis cache and `extra` flags: exit code. */
function score(name: string, items: unknown[], extra: string[]): Promise<number | null> {
  const input = join(dir, `${name}.jsonl`);
  writeFileSync(input, `${items.map((it) => JSON.stringify(it)).join('\n')}\n`);
  const args = [
    BIN,
    'score',
    '--rubrics',
    rubrics,
    '--in',
    input,
    '--out',
    join(dir, `${name}.out.jsonl`),
    '--judge',
    'openai-compatible:judge',
    '--judge-base-url',
    double.url,
    '--cache',
    redis.url,
    '--concurrency',
    '8',
    ...extra,
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      if (code !== 0) process.stderr.write(err);
      resolve(code);
    }),
  );
}

async function step(from: number, extra: string[]) {
  now = 0;
  peak = 0;
  judged = 0;
  const batch = rollouts(from + 24, 8, `s${from}-`);
  const [a, b, res] = await Promise.all([
    score(`a${from}`, rollouts(from, 12, `a${from}-`), extra),
    score(`b${from}`, rollouts(from + 12, 12, `b${from}-`), extra),
    postJson(`${serve.url}/v1/rewards`, { items: batch }),
  ]);
  const ok = (res.json as { results: Array<{ status: string }> }).results.filter(
    (r) => r.status === 'ok',
  ).length;
  return { codes: [a, b], status: res.status, ok, peak, judged };
}

describe('batch jobs on the shared judge budget', () => {
  it('two score processes and a replica never exceed the judge limit together', async () => {
    const r = await step(0, ['--judge-concurrency', String(LIMIT)]);
    expect(r.codes).toEqual([0, 0]);
    expect(r.status).toBe(200);
    expect(r.ok).toBe(8);
    expect(r.judged).toBe(32); // every rollout judged once
    expect(r.peak).toBeLessThanOrEqual(LIMIT);
    expect(r.peak).toBe(LIMIT); // and the budget was used
  }, 120_000);

  it('control: without --judge-concurrency a batch job keeps its own limit and exceeds it', async () => {
    const r = await step(30, []);
    expect(r.codes).toEqual([0, 0]);
    expect(r.peak).toBeGreaterThan(LIMIT);
  }, 120_000);

  it('a rate limit without --judge-concurrency is refused (exit 2)', async () => {
    expect(await score('rpm', rollouts(0, 1, 'x'), ['--judge-rpm', '60'])).toBe(2);
  }, 60_000);
});
