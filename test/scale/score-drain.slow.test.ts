// A batch `rubrica score` told to stop by SIGTERM — what Slurm sends before it requeues or
// preempts a task, and Kubernetes before it moves a pod — stops taking rollouts but finishes
// the judge calls it has in flight and writes them, so the requeued run re-asks nothing: over
// the stopped run and its resume, every picture reaches the judge exactly once. The control:
// Ctrl-C (SIGINT) still stops at once, its in-flight calls are lost, and the resume asks them
// again — the count this test relies on does see re-asked calls.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeByImage, tempDir, writeRubrics } from '../server/support.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { type DoubleRequest, startModelDouble } from '../support/model-double.ts';

const BIN = new URL('../../bin/rubrica.js', import.meta.url).pathname;
const N = 16;
const icons = fluentEmoji(2 * N);
const completion = (svg: string) => `\`\`\`svg\n${svg}\n\`\`\``;

let double: Awaited<ReturnType<typeof startModelDouble>>;
let dir: string;
let rubrics: string;
// Judge calls per picture (start-up checks not counted).
const judged = new Map<string, number>();
const calls = () => [...judged.values()].reduce((s, n) => s + n, 0);

beforeAll(async () => {
  const answer = judgeByImage();
  double = await startModelDouble({
    handler: (req: DoubleRequest) => {
      if (req.text.includes('{"colour"')) return { content: '{"colour": "red"}' };
      const img = req.images[0] ?? '';
      judged.set(img, (judged.get(img) ?? 0) + 1);
      return { ...answer(req), delayMs: 800 };
    },
  });
  dir = tempDir('score-drain');
  rubrics = writeRubrics(dir, [['fox', 'a red fox']]);
});

afterAll(async () => {
  await double?.close();
});

/** `rubrica score` over this case's rollouts, with its own SQLite cache; resolves on exit. */
function score(name: string, from: number, env: Record<string, string> = {}) {
  const input = join(dir, `${name}.jsonl`);
  const items = icons.slice(from, from + N).map((ic, i) => ({
    id: `${name}${i}`,
    prompt_id: 'fox',
    completion: completion(ic.svg),
  }));
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
    join(dir, `${name}.cache.sqlite`),
    '--concurrency',
    '4',
  ];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, exited, stderr: () => err };
}

const outLines = (name: string) => {
  const p = join(dir, `${name}.out.jsonl`);
  return existsSync(p) ? readFileSync(p, 'utf8').split('\n').filter(Boolean).length : 0;
};

/** Sends `signal` to a run once `k` judge calls have reached the judge. */
async function stopAfter(child: ChildProcess, k: number, signal: NodeJS.Signals) {
  const before = calls();
  while (calls() - before < k) await new Promise((r) => setTimeout(r, 10));
  child.kill(signal);
}

describe('score under SIGTERM', () => {
  it('finishes and writes the calls in flight, so the resumed run judges nothing twice', async () => {
    judged.clear();
    const first = score('term', 0);
    await stopAfter(first.child, 6, 'SIGTERM');
    const asked = calls(); // answered or on their way when the signal came
    expect(await first.exited).toBe(130);
    expect(first.stderr()).toMatch(/SIGTERM: finishing the calls in flight/);
    expect(first.stderr()).toMatch(/interrupted: \d+ rollouts written/);
    // Nothing asked was dropped: every call made, also by rollouts that were rendering when
    // the signal came, was answered and its rollout written; no rollout was started after.
    expect(outLines('term')).toBe(calls());
    expect(calls()).toBeLessThanOrEqual(asked + 4); // --concurrency 4
    expect(calls()).toBeLessThan(N);

    const resumed = score('term', 0);
    expect(await resumed.exited).toBe(0);
    expect(outLines('term')).toBe(N);
    expect(judged.size).toBe(N);
    expect([...judged.values()].every((n) => n === 1)).toBe(true);
  }, 120_000);

  it('gives up on the calls in flight after RUBRICA_DRAIN_SECONDS, or at a second SIGTERM', async () => {
    judged.clear();
    // The 800 ms calls in flight outlast a 0.1 s drain: they are cut off, not written.
    const late = score('late', 0, { RUBRICA_DRAIN_SECONDS: '0.1' });
    await stopAfter(late.child, 4, 'SIGTERM');
    expect(await late.exited).toBe(130);
    expect(outLines('late')).toBeLessThan(calls());
    judged.clear();
    const twice = score('twice', N);
    await stopAfter(twice.child, 4, 'SIGTERM');
    // Once it says it drains (two signals sent at once would arrive as one).
    while (!/SIGTERM: finishing/.test(twice.stderr())) await new Promise((r) => setTimeout(r, 10));
    twice.child.kill('SIGTERM');
    expect(await twice.exited).toBe(130);
    expect(twice.stderr()).toMatch(/SIGTERM: finishing the calls in flight/);
    expect(outLines('twice')).toBeLessThan(calls());
  }, 120_000);

  it('control: Ctrl-C stops at once, and the resume asks the lost calls again', async () => {
    judged.clear();
    const first = score('int', N);
    await stopAfter(first.child, 6, 'SIGINT');
    expect(await first.exited).toBe(130);
    const resumed = score('int', N);
    expect(await resumed.exited).toBe(0);
    expect(outLines('int')).toBe(N);
    expect([...judged.values()].some((n) => n > 1)).toBe(true);
  }, 120_000);
});
