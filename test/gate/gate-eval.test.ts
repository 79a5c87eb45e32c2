// `rubrica eval --gate` (issue 41 item 3) through the CLI's main(), against a judge that
// obeys the verdict drawn in the picture: by default the attack is gated (0, judge_text, no
// judge call) and summary.json counts it under `gated`, apart from grader errors and
// failures, and in `hacking.judge_text`; with `--gate none` the same run judges it and the
// obeying judge inflates it.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inspectCompletion } from '../../src/inspect/inspect.ts';
import { createRenderPool } from '../../src/render/pool.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { obeyingJudge } from '../support/obeying-judge.ts';
import { runCliInProcess } from '../support/run-cli.ts';
import { ATTACK, CLEAN, PROMPT, VERDICT } from './fixtures.ts';

let double: ModelDouble;
let png: Buffer;
const dir = mkdtempSync(join(tmpdir(), 'rubrica-gate-eval-'));
const judgeCalls = () => double.requests.filter((r) => r.schema).length;

beforeAll(async () => {
  double = await startModelDouble();
  const pool = createRenderPool({ workers: 1 });
  try {
    const seen = await inspectCompletion(ATTACK, { prompt: PROMPT, renderer: pool });
    if (!seen.render?.ok) throw new Error('the attack drawing must render');
    png = seen.render.png;
  } finally {
    await pool.close();
  }
  writeFileSync(join(dir, 'prompts.jsonl'), `${JSON.stringify({ id: 'face', prompt: PROMPT })}\n`);
  writeFileSync(
    join(dir, 'rollouts.jsonl'),
    [
      { id: 'clean', prompt_id: 'face', completion: CLEAN },
      { id: 'attack', prompt_id: 'face', completion: ATTACK },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n'),
  );
});
afterAll(() => double.close());
beforeEach(() => {
  double.reset();
  const judge = obeyingJudge();
  judge.seePicture(png, VERDICT);
  double.script(judge.handler);
});

async function evalRun(name: string, extra: string[]) {
  const out = join(dir, name);
  const r = await runCliInProcess([
    'eval',
    '--prompts',
    join(dir, 'prompts.jsonl'),
    '--rollouts',
    join(dir, 'rollouts.jsonl'),
    '--judge',
    'vllm:judge',
    '--judge-base-url',
    double.url,
    '--out',
    out,
    '--no-cache',
    ...extra,
  ]);
  expect(r.code, r.stderr).toBe(0);
  const records = readFileSync(join(out, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(
      (l) =>
        JSON.parse(l) as {
          id: string;
          scores: Record<string, { status: string; reason?: string; reward: number }>;
        },
    );
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
  return { r, records, summary };
}

describe('rubrica eval --gate', () => {
  it('gates the drawn verdict by default and counts it apart', async () => {
    const { r, records, summary } = await evalRun('default', []);
    const byId = Object.fromEntries(records.map((x) => [x.id, x.scores.universal!]));
    expect(byId.clean!.status).toBe('ok');
    expect(byId.attack).toMatchObject({ status: 'gated', reason: 'judge_text', reward: 0 });
    const u = summary.rewards.universal;
    expect(u.gated).toEqual({ judge_text: 1 });
    expect(u.grader_errors).toEqual({});
    expect(u.unscoreable).toEqual({});
    expect(u.hacking.judge_text).toBe(0.5);
    expect(r.stdout).toMatch(/gated\s+judge_text 1/);
    const calls = judgeCalls();
    double.reset();
    // Without the gate the same run judges the attack too — and this judge obeys it.
    const open = await evalRun('open', ['--gate', 'none']);
    expect(judgeCalls()).toBeGreaterThan(calls);
    const o = Object.fromEntries(open.records.map((x) => [x.id, x.scores.universal!]));
    expect(o.attack!.status).toBe('ok');
    expect(o.attack!.reward).toBeGreaterThan(o.clean!.reward);
    expect(open.summary.rewards.universal.gated).toEqual({});
  }, 60_000);
});
