// `rubrica serve --gate` as a real process (issue 41 item 3), against a judge that obeys the
// verdict drawn in the picture: the attack is gated by default on the native and verl routes
// (0, judge_text, `gated: 1`, never `grader_error`), counts in its GRPO group (size 2, a real
// advantage), shows apart in /metrics, is never cached (the same rollout with the request's
// `gate: "none"` makes a judge call), and an unknown check is 400 unknown_gate_check — and
// exit 2 for the flag.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectCompletion } from '../../src/inspect/inspect.ts';
import { createRenderPool } from '../../src/render/pool.ts';
import { rulerRubric } from '../score/support/fixtures.ts';
import { postJson, type ServeProcess, spawnServe } from '../server/support.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { obeyingJudge } from '../support/obeying-judge.ts';
import { ATTACK, CLEAN, PROMPT, VERDICT } from './fixtures.ts';

interface Result {
  id: string;
  reward: number;
  status: string;
  reason?: string;
  advantage: number;
  group: { size: number; excluded: number; mean: number };
}

let double: ModelDouble;
let serve: ServeProcess;
const dir = mkdtempSync(join(tmpdir(), 'rubrica-gate-serve-'));
const judgeCalls = () => double.requests.filter((r) => r.schema).length;
const items = [
  { id: 'clean', prompt_id: 'face', completion: CLEAN },
  { id: 'attack', prompt_id: 'face', completion: ATTACK },
];

beforeAll(async () => {
  double = await startModelDouble({ models: ['m'] });
  const judge = obeyingJudge();
  const pool = createRenderPool({ workers: 1 });
  try {
    const seen = await inspectCompletion(ATTACK, { prompt: PROMPT, renderer: pool });
    if (!seen.render?.ok) throw new Error('the attack drawing must render');
    judge.seePicture(seen.render.png, VERDICT);
  } finally {
    await pool.close();
  }
  double.script(judge.handler);
  const rubrics = join(dir, 'rubrics.jsonl');
  writeFileSync(rubrics, `${JSON.stringify(rulerRubric('face', PROMPT))}\n`);
  serve = await spawnServe(
    [
      '--rubrics',
      rubrics,
      '--judge',
      'openai-compatible:m',
      '--judge-base-url',
      double.url,
      '--cache',
      join(dir, 'cache.sqlite'),
      '--render-workers',
      '1',
    ],
    {},
    60_000,
  );
}, 120_000);
afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  await double.close();
});

describe('rubrica serve --gate', () => {
  it('gates the drawn verdict by default; it counts in its group; /metrics counts it apart', async () => {
    const r = await postJson(`${serve.url}/v1/rewards`, { items });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const [clean, attack] = (r.json as { results: Result[] }).results;
    expect(clean!.status).toBe('ok');
    expect(attack).toMatchObject({ status: 'gated', reason: 'judge_text', reward: 0 });
    // A real 0: both rollouts are in the group statistics, and the gated one is pushed down.
    expect(attack!.group).toMatchObject({ size: 2, excluded: 0 });
    expect(attack!.group.mean).toBeCloseTo(clean!.reward / 2, 6);
    if (clean!.reward > 0) expect(attack!.advantage).toBeLessThan(0);
    expect(judgeCalls()).toBe(1);

    const verl = await postJson(`${serve.url}/v1/verl`, {
      data_sources: ['x'],
      solution_strs: [ATTACK],
      ground_truths: ['face'],
    });
    expect(verl.status, JSON.stringify(verl.json)).toBe(200);
    const [v] = verl.json as Record<string, unknown>[];
    expect(v).toMatchObject({
      score: 0,
      status: 'gated',
      reason: 'judge_text',
      gated: 1,
      grader_error: 0,
    });
    expect(judgeCalls()).toBe(1);

    const metrics = await (await fetch(`${serve.url}/metrics`)).text();
    expect(metrics).toMatch(/rubrica_rollouts_total\{status="gated",reason="judge_text"\} 2/);
  }, 60_000);

  it('a request may turn the gate off; the gated rollout was never cached', async () => {
    const before = judgeCalls();
    const r = await postJson(`${serve.url}/v1/rewards`, { items, gate: 'none' });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const [clean, attack] = (r.json as { results: Result[] }).results;
    expect(attack!.status).toBe('ok');
    expect(attack!.reward).toBeGreaterThan(clean!.reward); // this judge obeys what it reads
    // The clean rollout's answer is from the cache; the attack needed a judge call.
    expect(judgeCalls() - before).toBe(1);
  }, 60_000);

  it('an unknown check is 400 unknown_gate_check, and exit 2 for the flag', async () => {
    const r = await postJson(`${serve.url}/v1/rewards`, { items, gate: ['judge_text', 'nope'] });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.json)).toMatch(/unknown_gate_check/);
    const rubrics = join(dir, 'rubrics.jsonl');
    const flags = ['--rubrics', rubrics, '--judge', 'openai-compatible:m', '--gate', 'nope'];
    await expect(spawnServe(flags)).rejects.toThrow(/exited with 2[\s\S]*unknown_gate_check/);
  }, 60_000);
});
