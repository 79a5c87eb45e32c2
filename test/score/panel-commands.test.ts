// Judge panels through `eval` and `rescore` (issue 37): the panel is part of the judging
// strategy parsed once from `--judge a,b --judge c --quorum N --panel-weights …`, so these
// commands take it as `score` does. Three judges on one double, told apart by model name:
// judge-b answers every call with HTTP 500. With --quorum 2 every criterion is the mean of
// judge-a and judge-c, judge-b's fault is on the criterion, and the rollout is ok; with
// --quorum 3 the rollout is a grader fault, never a zero taken as a reward.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeRubrics } from '../server/support.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';
import { PANEL_JUDGES, panelHandler } from './panel-double.ts';

const dir = tempDir('panel-commands');
const rubrics = writeRubrics(dir, [['p', 'a bar']]);
const bar = (w: number) =>
  `\`\`\`svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="${w}" height="100" fill="#000"/></svg>\n\`\`\``;
let double: ModelDouble;
const rollouts = join(dir, 'rollouts.jsonl');
const prompts = join(dir, 'prompts.jsonl');

beforeAll(async () => {
  double = await startModelDouble({ handler: panelHandler });
  const lines = [
    { id: 'r1', prompt_id: 'p', completion: bar(30) },
    { id: 'r2', prompt_id: 'p', completion: bar(60) },
  ];
  writeFileSync(rollouts, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  writeFileSync(prompts, `${JSON.stringify({ id: 'p', prompt: 'a bar' })}\n`);
});
afterAll(() => double?.close());

type Leaf = {
  score: number | null;
  panel?: { judge: string; score: number | null; fault?: string }[];
};
type Rec = { id: string; reward: number; status: string; criteria?: Leaf[] };
const judged = (c: Leaf[] | undefined) => (c ?? []).filter((l) => l.panel);
const judgeArgs = (quorum: string) => [
  '--judge',
  `${PANEL_JUDGES[0]},${PANEL_JUDGES[1]}`,
  '--judge',
  PANEL_JUDGES[2],
  '--quorum',
  quorum,
  '--judge-base-url',
  double.url,
  '--judge-retries',
  '0',
  '--no-cache',
];

/** Every judged criterion: the mean of judge-a (0.2) and judge-c (0.8), judge-b's fault kept. */
function expectPanelOfTwo(recs: Rec[]): void {
  for (const r of recs) {
    expect(r.status).toBe('ok');
    const leaves = judged(r.criteria);
    expect(leaves.length).toBeGreaterThan(0);
    for (const c of leaves) {
      expect(c.score).toBeCloseTo(0.5, 12);
      expect(c.panel!.map((p) => [p.judge, p.score, p.fault ?? null])).toEqual([
        [PANEL_JUDGES[0], 0.2, null],
        [PANEL_JUDGES[1], null, 'judge_error'],
        [PANEL_JUDGES[2], 0.8, null],
      ]);
    }
  }
}

const evalRun = async (name: string, quorum: string) => {
  const out = join(dir, name);
  const r = await runCliInProcess([
    'eval',
    '--prompts',
    prompts,
    '--rollouts',
    rollouts,
    '--out',
    out,
    ...judgeArgs(quorum),
  ]);
  const recs = readFileSync(join(out, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { scores: Record<string, Rec> }).scores.universal!);
  return { ...r, recs };
};

describe('judge panels through eval and rescore', () => {
  it('eval: a quorum of two answers without the faulting judge; a quorum of three faults', async () => {
    const ok = await evalRun('eval-q2', '2');
    expect(ok.code, ok.stderr).toBe(0);
    expectPanelOfTwo(ok.recs);
    const summary = JSON.parse(readFileSync(join(dir, 'eval-q2', 'summary.json'), 'utf8'));
    expect(summary.settings).toMatchObject({
      'judge panel': PANEL_JUDGES.join(', '),
      'panel quorum': 2,
    });
    const strict = await evalRun('eval-q3', '3');
    for (const r of strict.recs) {
      expect(r.status).not.toBe('ok');
      expect(r.reward).toBe(0);
    }
    expect(strict.recs.every((r) => r.status === 'grader_error')).toBe(true);
  });

  it('rescore: re-judges with a panel, each judge on the record', async () => {
    const scores = join(dir, 'old.jsonl');
    writeFileSync(
      scores,
      ['r1', 'r2']
        .map((id, k) =>
          JSON.stringify({ id, prompt_id: 'p', reward_kind: 'ruler', reward: k, status: 'ok' }),
        )
        .join('\n'),
    );
    const out = join(dir, 'rescored.jsonl');
    const r = await runCliInProcess([
      'rescore',
      '--in',
      scores,
      '--rollouts',
      rollouts,
      '--rubrics',
      rubrics,
      '--out',
      out,
      '--json',
      ...judgeArgs('2'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ panel: [...PANEL_JUDGES], quorum: 2 });
    const recs = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Rec);
    expectPanelOfTwo(recs);
    for (const x of recs) expect(x.reward).toBeCloseTo(0.5, 9);
  });

  it('a quorum larger than the panel is a usage error in every command', async () => {
    for (const cmd of [
      ['eval', '--prompts', prompts, '--rollouts', rollouts, '--out', join(dir, 'bad')],
      ['rescore', '--in', rollouts, '--out', join(dir, 'bad.jsonl')],
    ]) {
      const r = await runCliInProcess([...cmd, ...judgeArgs('4')]);
      expect(r.code, `${cmd[0]}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/quorum 4/);
    }
  });
});
