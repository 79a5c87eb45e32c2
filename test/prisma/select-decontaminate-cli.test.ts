// `rubrica select` and `rubrica decontaminate` as a user runs them (in-process CLI, real
// files): the RL prompt set with its verl parquet read back, the histogram, flag errors;
// decontamination's kept/dropped files and report.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'prisma-select-'));
const jsonl = (name: string, rows: object[]) => {
  const p = join(dir, name);
  writeFileSync(p, rows.map((r) => JSON.stringify(r)).join('\n'));
  return p;
};

describe('rubrica select', () => {
  const seed = [0.94, 0.34, 0.64, 0.79, 0.49]; // U 0.045
  const scores = jsonl('scores.jsonl', [
    ...seed.map((reward, i) => ({ id: `a${i}`, prompt_id: 'A', reward, status: 'ok' })),
    ...[0.5, 0.5, 0.5].map((reward, i) => ({ id: `b${i}`, prompt_id: 'B', reward, status: 'ok' })),
    { id: 'c0', prompt_id: 'C', reward: 1, status: 'ok' },
    { id: 'c1', prompt_id: 'C', reward: 0, status: 'unscoreable', reason: 'no_svg' },
    { id: 'c2', prompt_id: 'C', reward: 0, status: 'grader_error', reason: 'judge_error' },
  ]);
  const prompts = jsonl('prompts.jsonl', [
    { id: 'A', prompt: 'a bar chart' },
    { id: 'B', prompt: 'a cat' },
    { id: 'C', prompt: 'a tree' },
  ]);

  it('writes the highest-U instructions as JSONL and verl parquet, with a histogram', async () => {
    const out = join(dir, 'rl');
    const r = await runCliInProcess([
      'select',
      '--scores',
      scores,
      '--prompts',
      prompts,
      '--out',
      out,
      '--top-k',
      '2',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const sel = readFileSync(join(out, 'selected.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // C: {1, 0} (the fault left out) → U 0.25; A: the seed's 0.045.
    expect(sel.map((s) => [s.id, s.k, s.faults])).toEqual([
      ['C', 2, 1],
      ['A', 5, 0],
    ]);
    expect(sel[1].dispersion).toBeCloseTo(0.045, 15);
    const rows = await parquetReadObjects({
      file: new Uint8Array(readFileSync(join(out, 'rl.parquet'))).buffer,
    });
    expect(rows.map((x) => [x.reward_model.ground_truth, x.prompt[0].content])).toEqual([
      ['C', 'a tree'],
      ['A', 'a bar chart'],
    ]);
    expect(
      readFileSync(join(out, 'histogram.txt'), 'utf8').split('\n').filter(Boolean),
    ).toHaveLength(20);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).toMatchObject({
      ranked: 3,
      selected: 2,
    });
  });

  it('selects by --min-dispersion, and refuses a run with no criterion', async () => {
    const out = join(dir, 'rl2');
    const r = await runCliInProcess([
      'select',
      '--scores',
      scores,
      '--prompts',
      prompts,
      '--out',
      out,
      '--min-dispersion',
      '0.04',
    ]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(out, 'selected.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    const bad = await runCliInProcess([
      'select',
      '--scores',
      scores,
      '--prompts',
      prompts,
      '--out',
      out,
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--top-k, --top-fraction or --min-dispersion/);
  });
});

describe('rubrica decontaminate', () => {
  it('drops the leaked sample and reports per test set', async () => {
    const leak =
      'draw a pie chart of market share for five companies with percentages shown inside every slice';
    const train = jsonl('train.jsonl', [
      { id: 't1', instruction: `Please ${leak.toUpperCase()}!` },
      { id: 't2', instruction: 'draw a pie chart' },
    ]);
    const test = jsonl('plotbench.jsonl', [{ id: 'q1', instruction: leak }]);
    const r = await runCliInProcess([
      'decontaminate',
      '--train',
      train,
      '--test',
      test,
      '--out',
      join(dir, 'clean.jsonl'),
      '--dropped',
      join(dir, 'dropped.jsonl'),
      '--report',
      join(dir, 'report.json'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/1 kept, 1 dropped/);
    expect(readFileSync(join(dir, 'clean.jsonl'), 'utf8')).toBe(
      `${JSON.stringify({ id: 't2', instruction: 'draw a pie chart' })}\n`,
    );
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(report.test_sets.plotbench).toEqual({
      instructions: 1,
      shorter_than_n: 0,
      malformed: 0,
      train_dropped: 1,
      train_dropped_whole_text: 0,
      test_hit: 1,
    });
    expect(report.n).toBe(13);
  });

  it('reads curate’s kept.jsonl, stops at a malformed line (exit 1), or skips and counts it', async () => {
    const short = 'a gantt chart of four tasks';
    const kept = (id: string, instruction: string) => ({
      messages: [
        { role: 'user', content: instruction },
        { role: 'assistant', content: '```mermaid\ngantt\n```' },
      ],
      meta: { id, source: 'github', domain: 'mermaid', decision: 'kept', score: 1, rounds: 0 },
    });
    const train = jsonl('kept.jsonl', [
      kept('k1', 'A Gantt chart of four tasks!'),
      kept('k2', 'a pie chart'),
    ]);
    const test = jsonl('shortbench.jsonl', [{ id: 'g', prompt: short }]);
    const args = ['decontaminate', '--train', train, '--test', test, '--out', join(dir, 'k.jsonl')];
    const r = await runCliInProcess(args);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/1 kept, 1 dropped/);
    expect(r.stdout).toMatch(/shortbench: 1 training samples dropped \(1 as a whole short text\)/);
    expect(r.stdout).toMatch(/1 shorter than 13 words, matched as whole texts/);

    const torn = join(dir, 'torn.jsonl');
    writeFileSync(torn, `${JSON.stringify(kept('k1', 'a pie chart'))}\n{"messages": [\n`);
    const bad = await runCliInProcess([...args.slice(0, 2), torn, ...args.slice(3)]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringContaining(`${torn}:2: `)]);
    const skipped = await runCliInProcess([
      ...args.slice(0, 2),
      torn,
      ...args.slice(3),
      '--skip-malformed',
    ]);
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(skipped.stdout).toMatch(/1 kept, 0 dropped \(1 malformed lines skipped\)/);
  });
});
