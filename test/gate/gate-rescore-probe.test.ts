// `rubrica rescore --gate` and `rubrica probe --gate` (issue 41): the same flag and the same
// parse as score/eval. A score run made with `--gate none` (the drawn verdict judged, and
// inflated by a judge that obeys it) is rescored: by default the attack is gated (0,
// judge_text) and the clean rollout judged; `--gate none` judges both again. A probe of a
// clean rollout plants the drawn verdict: its attack row is gated under the default gate and
// not under `--gate none`. An unknown check is exit 2 with `unknown_gate_check` before any
// judge call, for rescore and for probe.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inspectCompletion } from '../../src/inspect/inspect.ts';
import { createRenderPool } from '../../src/render/pool.ts';
import { rulerRubric } from '../score/support/fixtures.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { obeyingJudge } from '../support/obeying-judge.ts';
import { runCliInProcess } from '../support/run-cli.ts';
import { ATTACK, CLEAN, PROMPT, VERDICT } from './fixtures.ts';

let double: ModelDouble;
let png: Buffer;
const dir = mkdtempSync(join(tmpdir(), 'rubrica-gate-rescore-'));
const judgeCalls = () => double.requests.filter((r) => r.schema).length;
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; status: string; reason?: string; reward: number });

const rubrics = join(dir, 'rubrics.jsonl');
const rollouts = join(dir, 'rollouts.jsonl');
const scores = join(dir, 'scores.jsonl');
const judgeArgs = () => ['--judge', 'openai-compatible:test-judge', '--judge-base-url', double.url];
const rescoreArgs = (out: string, extra: string[]) => [
  'rescore',
  '--in',
  scores,
  '--rollouts',
  rollouts,
  '--rubrics',
  rubrics,
  '--out',
  out,
  '--no-cache',
  ...judgeArgs(),
  ...extra,
];

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
  writeFileSync(rubrics, `${JSON.stringify(rulerRubric('face', PROMPT))}\n`);
  writeFileSync(
    rollouts,
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

describe('rubrica rescore --gate', () => {
  it('gates the drawn verdict of an ungated run by default; --gate none judges it again', async () => {
    const s = await runCliInProcess([
      'score',
      '--rubrics',
      rubrics,
      '--in',
      rollouts,
      '--out',
      scores,
      '--no-cache',
      '--gate',
      'none',
      ...judgeArgs(),
    ]);
    expect(s.code, s.stderr).toBe(0);
    expect(lines(scores).map((r) => r.status)).toEqual(['ok', 'ok']);
    double.reset();

    const gatedOut = join(dir, 'gated.jsonl');
    const g = await runCliInProcess(rescoreArgs(gatedOut, []));
    expect(g.code, g.stderr).toBe(0);
    const [clean, attack] = lines(gatedOut);
    expect(clean!.status).toBe('ok');
    expect(attack).toMatchObject({ status: 'gated', reason: 'judge_text', reward: 0 });
    expect(judgeCalls()).toBe(1);
    double.reset();

    const openOut = join(dir, 'open.jsonl');
    const o = await runCliInProcess(rescoreArgs(openOut, ['--gate', 'none']));
    expect(o.code, o.stderr).toBe(0);
    const [c2, a2] = lines(openOut);
    expect(a2!.status).toBe('ok');
    expect(a2!.reward).toBeGreaterThan(c2!.reward);
    expect(judgeCalls()).toBe(2);
  }, 60_000);

  it('an unknown check is exit 2 with unknown_gate_check, before any judge call', async () => {
    const r = await runCliInProcess(rescoreArgs(join(dir, 'x.jsonl'), ['--gate', 'nope']));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown_gate_check/);
    expect(double.requests).toHaveLength(0);
  });
});

/** One clean rollout probed with RULER, one repeat, no order probe: the attack rows' gated share. */
async function probeGatedShare(name: string, extra: string[]): Promise<number | null> {
  const out = join(dir, name);
  writeFileSync(
    join(dir, 'clean.jsonl'),
    `${JSON.stringify({ id: 'clean', prompt_id: 'face', completion: CLEAN })}\n`,
  );
  const r = await runCliInProcess([
    'probe',
    '--prompts',
    join(dir, 'prompts.jsonl'),
    '--rollouts',
    join(dir, 'clean.jsonl'),
    '--rubrics',
    rubrics,
    '--reward',
    'ruler',
    '--repeats',
    '1',
    '--order-modes',
    'none',
    '--out',
    out,
    ...judgeArgs(),
    ...extra,
  ]);
  expect(r.stderr).not.toMatch(/unknown option/);
  const report = JSON.parse(readFileSync(join(out, 'probe.json'), 'utf8')) as {
    probes: { id: string; figures: Record<string, number | null> }[];
  };
  const row = report.probes.find((p) => p.id === 'attack.visible_verdict');
  expect(row).toBeDefined();
  expect(row!.figures.flagged_share).toBe(1);
  return row!.figures.gated_share ?? null;
}

describe('rubrica probe --gate', () => {
  it('the drawn verdict is gated under the default gate and judged under --gate none', async () => {
    expect(await probeGatedShare('probe-default', [])).toBe(1);
    expect(await probeGatedShare('probe-open', ['--gate', 'none'])).toBe(0);
  }, 60_000);

  it('an unknown check is exit 2 with unknown_gate_check, before any judge call', async () => {
    const r = await runCliInProcess([
      'probe',
      '--prompts',
      join(dir, 'prompts.jsonl'),
      '--rollouts',
      rollouts,
      '--out',
      join(dir, 'probe'),
      '--gate',
      'judge_text,nope',
      ...judgeArgs(),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown_gate_check/);
    expect(double.requests).toHaveLength(0);
  });
});
