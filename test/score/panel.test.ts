// Judge panels through `rubrica score` (issue 37): three judges (one double, told apart by the
// model name) scored in parallel; every criterion is the mean of the judges that answered,
// each judge's answer stays on the criterion, and one judge's faults do not fault the panel
// while the quorum answers; below the quorum the rollout is a grader fault, never a zero.
// Pairwise under a panel: the majority of the judges names the winner.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeRubrics } from '../server/support.ts';
import { type DoubleRequest, type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';

const SCORE: Record<string, number> = { 'judge-a': 0.2, 'judge-b': 0.9, 'judge-c': 0.5 };
const dir = tempDir('panel');
const rubrics = writeRubrics(dir, [['p', 'a bar']]);
const bar = (w: number) =>
  `\`\`\`svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="${w}" height="100" fill="#000"/></svg>\n\`\`\``;
let double: ModelDouble;
let failing = new Set<string>();

beforeAll(async () => {
  double = await startModelDouble({
    handler: (req: DoubleRequest) => {
      if (failing.has(req.model)) return { status: 500 };
      if (req.images.length === 2) {
        // judge-a and judge-c prefer the second picture, judge-b the first.
        const winner = req.model === 'judge-b' ? 'first' : 'second';
        return { content: JSON.stringify({ reasoning: req.model, winner }) };
      }
      const keys = Object.keys((req.schema?.properties ?? {}) as Record<string, unknown>);
      const s = SCORE[req.model]!;
      return {
        content: JSON.stringify(
          Object.fromEntries(keys.map((k) => [k, { reasoning: req.model, score: s }])),
        ),
      };
    },
  });
  writeFileSync(
    join(dir, 'in.jsonl'),
    `${[
      { id: 'r1', prompt_id: 'p', completion: bar(30) },
      { id: 'r2', prompt_id: 'p', completion: bar(60) },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n')}\n`,
  );
});
afterAll(() => double?.close());

type Leaf = { score: number | null; panel?: { judge: string; score: number | null }[] };
type Rec = { id: string; reward: number; status: string; reason?: string; criteria: Leaf[] };
const score = async (out: string, ...more: string[]) => {
  const r = await runCliInProcess([
    'score',
    '--in',
    join(dir, 'in.jsonl'),
    '--out',
    join(dir, out),
    '--rubrics',
    rubrics,
    '--judge',
    'openai-compatible:judge-a,openai-compatible:judge-b',
    '--judge',
    'openai-compatible:judge-c',
    '--judge-base-url',
    double.url,
    '--judge-retries',
    '0',
    '--no-cache',
    ...more,
  ]);
  const recs = readFileSync(join(dir, out), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Rec);
  return { ...r, recs };
};

describe('judge panels', () => {
  it('scores each criterion as the mean of the judges and keeps every answer', async () => {
    failing = new Set();
    const { code, recs } = await score('all.jsonl');
    expect(code).toBe(0);
    for (const r of recs) {
      expect(r.status).toBe('ok');
      for (const c of r.criteria) {
        expect(c.score).toBeCloseTo((0.2 + 0.9 + 0.5) / 3, 12);
        expect(c.panel!.map((p) => [p.judge, p.score])).toEqual([
          ['openai-compatible:judge-a', 0.2],
          ['openai-compatible:judge-b', 0.9],
          ['openai-compatible:judge-c', 0.5],
        ]);
      }
    }
  });

  it('answers without a faulted judge while the quorum answers, and faults below it', async () => {
    failing = new Set(['judge-b']);
    const ok = await score('quorum2.jsonl', '--quorum', '2');
    for (const r of ok.recs) {
      expect(r.status).toBe('ok');
      expect(r.criteria[0]!.score).toBeCloseTo((0.2 + 0.5) / 2, 12);
      expect(r.criteria[0]!.panel![1]).toMatchObject({ score: null, fault: 'judge_error' });
    }
    const strict = await score('quorum3.jsonl', '--quorum', '3');
    expect(strict.code).toBe(1);
    for (const r of strict.recs) expect(r.status).not.toBe('ok');
    expect(
      strict.recs.every((r) => r.status === 'grader_error' || r.reason === 'judge_error'),
    ).toBe(true);
    failing = new Set();
  });

  it('weights the panel as declared, and decides a pairwise comparison by majority', async () => {
    const w = await score('weighted.jsonl', '--panel-weights', '1,2,1');
    expect(w.recs[0]!.criteria[0]!.score).toBeCloseTo((0.2 + 2 * 0.9 + 0.5) / 4, 12);
    const pw = await score('pairwise.jsonl', '--judging', 'pairwise');
    // a and c say "second" whatever the order: every comparison is a tie after both orders.
    for (const r of pw.recs) expect(r.reward).toBeCloseTo(0.5, 12);
    const bad = await runCliInProcess([
      'score',
      '--in',
      join(dir, 'in.jsonl'),
      '--out',
      join(dir, 'bad.jsonl'),
      '--rubrics',
      rubrics,
      '--judge',
      'openai-compatible:judge-a',
      '--judge-base-url',
      double.url,
      '--quorum',
      '2',
    ]);
    expect(bad.code).toBe(2);
  });
});
