// `rubrica curate` end to end (in-process CLI, real render pool, real SQLite, one loopback
// model double playing the code judge, the vision judge and the generator): kept directly,
// recovered by re-synthesis (the generator is told the failing criteria and the judges'
// rationales), discarded below τ1, discarded after the last round, unexecutable; the funnel
// per source; resume without new calls; a grader fault left pending and redone.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fluentEmoji } from '../support/corpus.ts';
import {
  type DoubleRequest,
  fillSchema,
  jsonAnswer,
  type ModelDouble,
  schemaAnswerer,
  startModelDouble,
} from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';
import { isCodeJudge, isVisionJudge, prismaRubric } from './fixtures.ts';

const ICONS = fluentEmoji(10).map((c) => c.svg);
const FIXED = 'data-fixed="yes"';
let double: ModelDouble;
let judgeDown = false;
const dir = mkdtempSync(join(tmpdir(), 'prisma-curate-'));

/** Every criterion satisfied (true, full count) or none (false, 0). */
const verdicts = (req: DoubleRequest, pass: boolean) =>
  jsonAnswer(
    fillSchema(req.schema!, (kind, path) =>
      kind === 'boolean' ? pass : kind === 'string' ? `reason-${String(path[0])}` : pass ? 99 : 0,
    ),
  );

const CANDIDATES = [
  { id: 'good', instruction: 'instruction GOOD', code: ICONS[0]!, source: 'web' },
  { id: 'mid', instruction: 'instruction MID', code: ICONS[1]!, source: 'github' },
  { id: 'bad', instruction: 'instruction BAD', code: ICONS[2]!, source: 'github' },
  { id: 'stuck', instruction: 'instruction STUCK', code: ICONS[3]!, source: 'github' },
  { id: 'broken', instruction: 'instruction BROKEN', code: 'print("hello")', source: 'web' },
  { id: 'flaky', instruction: 'instruction FLAKY', code: ICONS[4]!, source: 'web' },
];

beforeAll(async () => {
  double = await startModelDouble({ models: ['m'] });
  const author = schemaAnswerer({ seed: 2 });
  double.script((req) => {
    const text = req.text;
    if (req.schemaName === 'difficulty' || req.schemaName === 'rubric_items')
      return author.handler(req);
    if (text.includes('Failed criteria')) {
      // The generator: MID gets fixed, STUCK stays as it was.
      const svg = text.includes('instruction MID')
        ? ICONS[1]!.replace('<svg', `<svg ${FIXED}`)
        : ICONS[3]!;
      return { content: `\`\`\`svg\n${svg}\n\`\`\`` };
    }
    if (text.includes('instruction FLAKY') && judgeDown) return { status: 500 };
    if (isVisionJudge(req)) return verdicts(req, !text.includes('instruction BAD'));
    if (isCodeJudge(req)) {
      const pass =
        text.includes('instruction GOOD') ||
        text.includes('instruction FLAKY') ||
        text.includes(FIXED);
      return verdicts(req, pass);
    }
    return { status: 400 };
  });
  writeFileSync(join(dir, 'candidates.jsonl'), CANDIDATES.map((c) => JSON.stringify(c)).join('\n'));
  writeFileSync(
    join(dir, 'rubrics.jsonl'),
    CANDIDATES.map((c) => JSON.stringify(prismaRubric(c.id, c.instruction))).join('\n'),
  );
});
afterAll(() => double.close());

const run = () =>
  runCliInProcess([
    'curate',
    '--in',
    join(dir, 'candidates.jsonl'),
    '--out',
    join(dir, 'out'),
    '--rubrics',
    join(dir, 'rubrics.jsonl'),
    '--judge',
    'openai-compatible:m',
    '--judge-base-url',
    double.url,
    '--judge-retries',
    '0',
    '--generator',
    'openai-compatible:m',
    '--generator-base-url',
    double.url,
    '--tau1',
    '0.5',
    '--tau2',
    '0.75',
    '--rounds',
    '2',
    '--cache',
    join(dir, 'cache.sqlite'),
  ]);

const decisions = () =>
  readFileSync(join(dir, 'out', 'decisions.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('rubrica curate', () => {
  it('gates every candidate, recovers the mid band, and reports the funnel per source', async () => {
    judgeDown = true;
    const r = await run();
    expect(r.code, r.stderr).toBe(1); // one grader fault left to redo
    const by = Object.fromEntries(decisions().map((d) => [d.id, d]));
    // svg family: S = 0.3·S_code + 0.7·S_vision
    expect(by.good).toMatchObject({ decision: 'kept', initial_score: 1, final_score: 1 });
    expect(by.bad).toMatchObject({ decision: 'discarded', reason: 'below_tau1', initial_score: 0 });
    expect(by.mid.decision).toBe('recovered');
    expect(by.mid.rounds.map((x: { score: number }) => x.score)).toEqual([0.7, 1]);
    expect(by.mid.code).toContain(FIXED);
    expect(by.stuck).toMatchObject({ decision: 'discarded', reason: 'not_recovered' });
    expect(by.stuck.rounds.map((x: { score: number }) => x.score)).toEqual([0.7, 0.7, 0.7]);
    expect(by.broken).toMatchObject({ decision: 'unexecutable', reason: 'no_svg' });
    expect(by.flaky).toMatchObject({ decision: 'grader_error', reason: 'judge_error' });
    // The generator read the failing code criteria with the judge's rationale.
    const regen = double.requests.find(
      (q) => q.text.includes('Failed criteria') && q.text.includes('instruction MID'),
    )!;
    expect(regen.text).toMatch(/0\.00, \[code\] .*— reason-shared_self_contained/);
    expect(regen.text).not.toContain('[vision]');

    const kept = readFileSync(join(dir, 'out', 'kept.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(kept.map((k) => k.meta.id)).toEqual(['good', 'mid']);
    expect(kept[1].messages[1].content).toContain(FIXED);
    const f = JSON.parse(readFileSync(join(dir, 'out', 'funnel.json'), 'utf8'));
    expect(f.sources).toEqual([
      {
        source: 'github',
        raw: 3,
        executed: 3,
        scored: 3,
        kept_directly: 0,
        recovered: 1,
        discarded: 2,
        no_rubric: 0,
        pending: 0,
      },
      {
        source: 'web',
        raw: 3,
        executed: 2,
        scored: 1,
        kept_directly: 1,
        recovered: 0,
        discarded: 0,
        no_rubric: 0,
        pending: 1,
      },
    ]);
    expect(readFileSync(join(dir, 'out', 'funnel.html'), 'utf8')).toContain('<td>github</td>');
    expect(readFileSync(join(dir, 'out', 'funnel.txt'), 'utf8')).toMatch(
      /^source\s+raw\s+executed/,
    );
    const summary = JSON.parse(readFileSync(join(dir, 'out', 'summary.json'), 'utf8'));
    expect(summary.ledger.generator.calls).toBe(3);
    expect(summary.ledger.judge.calls).toBeGreaterThan(0);
  }, 180_000);

  it('resumes: decided units are skipped, the grader fault is redone, nothing else is asked', async () => {
    judgeDown = false;
    const before = double.requests.length;
    const r = await run();
    expect(r.code, r.stderr).toBe(0);
    // Only FLAKY's two judge calls.
    expect(double.requests.slice(before).every((q) => q.text.includes('instruction FLAKY'))).toBe(
      true,
    );
    const last = Object.fromEntries(decisions().map((d) => [d.id, d]));
    expect(last.flaky.decision).toBe('kept');
    const f = JSON.parse(readFileSync(join(dir, 'out', 'funnel.json'), 'utf8'));
    expect(f.total).toMatchObject({ raw: 6, kept_directly: 2, recovered: 1, pending: 0 });
  }, 120_000);

  it('writes the rubric of each instruction with --author, once per instruction text', async () => {
    const file = join(dir, 'same.jsonl');
    writeFileSync(
      file,
      ['a', 'b']
        .map((id) =>
          JSON.stringify({
            id,
            instruction: 'instruction GOOD twice',
            code: ICONS[5]!,
            source: 's',
          }),
        )
        .join('\n'),
    );
    const before = double.requests.length;
    const r = await runCliInProcess([
      'curate',
      '--in',
      file,
      '--out',
      join(dir, 'authored'),
      '--author',
      'openai-compatible:m',
      '--author-base-url',
      double.url,
      '--judge',
      'openai-compatible:m',
      '--judge-base-url',
      double.url,
      '--rounds',
      '0',
      '--concurrency',
      '1',
      '--cache',
      join(dir, 'cache2.sqlite'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const asked = double.requests.slice(before);
    expect(asked.filter((q) => q.schemaName === 'difficulty')).toHaveLength(1);
    expect(asked.filter((q) => q.schemaName === 'rubric_items')).toHaveLength(1);
    const ds = readFileSync(join(dir, 'authored', 'decisions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(ds.map((d) => [d.id, d.decision, d.rubric_id])).toEqual([
      ['a', 'kept', 'a'],
      ['b', 'kept', 'a'],
    ]);
    expect(ds[0].usage.author.calls).toBe(2);
    expect(ds[1].usage.author.calls).toBe(0);
  }, 120_000);
});
