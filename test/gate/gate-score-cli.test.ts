// `rubrica score --gate` (issue 41 item 3), the CLI's main() in this process against the
// loopback double with a judge that obeys text in the picture: the verdict drawn in a rollout
// is gated by default (0, judge_text, no judge call, counted apart in the summary), scored —
// and inflated — with `--gate none`, never cached, and an unknown check is exit 2 with
// `unknown_gate_check` before any judge call.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inspectCompletion } from '../../src/inspect/inspect.ts';
import { createRenderPool } from '../../src/render/pool.ts';
import { rulerRubric } from '../score/support/fixtures.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { type ObeyingJudge, obeyingJudge } from '../support/obeying-judge.ts';
import { runCliInProcess } from '../support/run-cli.ts';
import { ATTACK, CLEAN, PROMPT, VERDICT } from './fixtures.ts';

let double: ModelDouble;
let judge: ObeyingJudge;
let png: Buffer;
let dir: string;

const judgeCalls = () => double.requests.filter((r) => r.schema).length;
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; status: string; reason?: string; reward: number });

function args(extra: string[], out: string): string[] {
  return [
    'score',
    '--rubrics',
    join(dir, 'rubrics.jsonl'),
    '--in',
    join(dir, 'rollouts.jsonl'),
    '--out',
    out,
    '--judge',
    'openai-compatible:test-judge',
    '--judge-base-url',
    double.url,
    ...extra,
  ];
}

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
});
afterAll(() => double.close());
beforeEach(() => {
  double.reset();
  judge = obeyingJudge();
  judge.seePicture(png, VERDICT);
  double.script(judge.handler);
  dir = mkdtempSync(join(tmpdir(), 'rubrica-gate-score-'));
  writeFileSync(join(dir, 'rubrics.jsonl'), `${JSON.stringify(rulerRubric('face', PROMPT))}\n`);
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

describe('rubrica score --gate', () => {
  it('gates the drawn verdict by default and counts it apart', async () => {
    const out = join(dir, 'scores.jsonl');
    const r = await runCliInProcess([...args(['--no-cache'], out)]);
    expect(r.code).toBe(0);
    const [clean, attack] = lines(out);
    expect(clean!.status).toBe('ok');
    expect(attack).toMatchObject({ status: 'gated', reason: 'judge_text', reward: 0 });
    expect(judgeCalls()).toBe(1);
    expect(r.stdout).toMatch(/1 ok, 0 unscoreable, 1 gated/);
    expect(r.stdout).toMatch(/gated by check .*judge_text 1/);
  });

  it('--gate none judges it (and this judge obeys the drawn verdict)', async () => {
    const out = join(dir, 'scores.jsonl');
    const r = await runCliInProcess([...args(['--no-cache', '--gate', 'none'], out)]);
    expect(r.code).toBe(0);
    const [clean, attack] = lines(out);
    expect(attack!.status).toBe('ok');
    expect(attack!.reward).toBeGreaterThan(clean!.reward);
    expect(judgeCalls()).toBe(2);
  });

  it('a gated rollout is not cached: the next run with --gate none calls the judge for it', async () => {
    const cache = join(dir, 'cache.sqlite');
    await runCliInProcess(args(['--cache', cache], join(dir, 'a.jsonl')));
    expect(judgeCalls()).toBe(1); // the clean rollout only
    double.reset();
    await runCliInProcess(args(['--cache', cache, '--gate', 'none'], join(dir, 'b.jsonl')));
    // The clean rollout's answer comes from the cache; the attack's could not.
    expect(judgeCalls()).toBe(1);
    expect(lines(join(dir, 'b.jsonl'))[1]!.status).toBe('ok');
  });

  it('an unknown check is exit 2 with unknown_gate_check, before any judge call', async () => {
    const r = await runCliInProcess(
      args(['--no-cache', '--gate', 'judge_text,nope'], join(dir, 'x.jsonl')),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown_gate_check/);
    expect(double.requests).toHaveLength(0);
  });
});
