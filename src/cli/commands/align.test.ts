// `rubrica align` as a user runs it: a child process reading real files.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../test/support/run-cli.ts';

const BIN = new URL('../../../bin/rubrica.js', import.meta.url).pathname;

/** The real process, once: bin → tsx → main. */
function spawnCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], (err, stdout, stderr) => {
      const code = err ? ((err as { code?: number }).code ?? 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

let dir: string;
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rubrica-align-cli-'));
  // Two triplets: γ = (1 + 0)/(3 + 2) = 0.2 (see src/eval/align.test.ts for the hand count).
  const pred = { a1: 0.9, a2: 0.5, a3: 0.1, b1: 0.2, b2: 0.2, b3: 0.8 };
  const human = [80, 60, 70, 10, 30, 20];
  await writeFile(
    join(dir, 'pred.jsonl'),
    jsonl(Object.entries(pred).map(([id, score]) => ({ id, score }))),
  );
  await writeFile(
    join(dir, 'human.jsonl'),
    jsonl([
      ...Object.keys(pred).map((id, i) => ({ id, group: id[0], score: human[i] })),
      { group: 'A', a: 'a1', b: 'a2', winner: 'a' },
      { group: 'A', a: 'a2', b: 'a3', winner: 'b' },
      { id: 'ghost', group: 'G', score: 1 },
    ]),
  );
  await writeFile(join(dir, 'strangers.jsonl'), jsonl([{ id: 'nobody', score: 3 }]));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('rubrica align', () => {
  it('reads an eval output directory as its results.jsonl', async () => {
    const run = join(dir, 'run');
    await mkdir(run);
    const records = ['a1', 'a2', 'a3'].map((id, i) => ({
      id,
      prompt_id: 'A',
      run: 'm',
      scores: { universal: { id, reward: [0.9, 0.5, 0.1][i], status: 'ok' } },
    }));
    await writeFile(join(run, 'results.jsonl'), jsonl(records));
    const r = await runCliInProcess([
      'align',
      '--pred',
      run,
      '--human',
      join(dir, 'human.jsonl'),
      '--json',
    ]);
    expect(r.code).toBe(0);
    // Group A alone: C=2, D=1 → γ = 1/3.
    expect(JSON.parse(r.stdout).judges[0].absolute.gamma.estimate).toBeCloseTo(1 / 3, 12);
  });

  it('prints the statistics as JSON, reproducibly for a seed', async () => {
    const args = ['align', '--pred', join(dir, 'pred.jsonl'), '--human', join(dir, 'human.jsonl')];
    const r = await spawnCli([...args, '--json', '--resamples', '300', '--seed', '4']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.bootstrap).toEqual({ resamples: 300, seed: 4, level: 0.95 });
    const judge = report.judges[0];
    expect(judge.name).toBe('pred');
    expect(judge.absolute.items).toBe(6);
    expect(judge.absolute.gamma.estimate).toBeCloseTo(0.2, 12);
    expect(judge.pairwise).toMatchObject({ votes: 2, agree: 1, disagree: 1 });
    expect(judge.unmatched).toBe(1); // ghost
    const text = await runCliInProcess([...args, '--resamples', '300', '--seed', '4']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/pred\s+6\s+\S+.*0\.200/);
    expect(text.stdout).toContain('pred: 1 human judgements have no verdict from this judge');
  });

  it('--count votes counts each human vote against its own judge vote and says which was used', async () => {
    const human = join(dir, 'repeat-human.jsonl');
    const judge = join(dir, 'repeat-judge.jsonl');
    // People voted x over y twice; the judge, asked once per vote, said x then y: a split.
    await writeFile(human, jsonl([1, 2].map(() => ({ group: 'p', a: 'x', b: 'y', winner: 'a' }))));
    await writeFile(
      judge,
      jsonl([
        { group: 'p', a: 'x', b: 'y', winner: 'a' },
        { group: 'p', a: 'y', b: 'x', winner: 'a' },
      ]),
    );
    const args = ['align', '--pred', `j=${judge}`, '--human', human, '--json'];
    const pairs = JSON.parse((await runCliInProcess(args)).stdout);
    expect(pairs.count).toBe('pairs');
    expect(pairs.judges[0].pairwise).toMatchObject({ agree: 0, disagree: 0, judge_ties: 2 });
    const votes = JSON.parse((await runCliInProcess([...args, '--count', 'votes'])).stdout);
    expect(votes.count).toBe('votes');
    expect(votes.judges[0].pairwise).toMatchObject({ agree: 1, disagree: 1, judge_ties: 0 });
    const text = await runCliInProcess([
      'align',
      '--pred',
      `j=${judge}`,
      '--human',
      human,
      '--count',
      'votes',
    ]);
    expect(text.stdout).toMatch(/^counting: votes \(per vote/m);
    const bad = await runCliInProcess([...args, '--count', 'each']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--count must be one of pairs, votes/);
  });

  it('exits 1 when nothing matches or a file is missing, 2 on bad flags', async () => {
    const human = join(dir, 'human.jsonl');
    const none = await runCliInProcess([
      'align',
      '--pred',
      join(dir, 'strangers.jsonl'),
      '--human',
      human,
    ]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no human judgement matched a prediction');
    const missing = await runCliInProcess([
      'align',
      '--pred',
      join(dir, 'nope.jsonl'),
      '--human',
      human,
    ]);
    expect(missing.code).toBe(2);
    // A directory without results.jsonl is a missing file too.
    const emptyDir = await runCliInProcess(['align', '--pred', dir, '--human', human]);
    expect(emptyDir.code).toBe(2);
    expect(emptyDir.stderr).toContain('results.jsonl');
    const bad = await runCliInProcess(['align', '--pred', human, '--human', human, '--seed', '-3']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--seed must be an integer');
  });
});

describe('rubrica align: several judges, CSV, ties, HTML', () => {
  it('puts judges from JSONL and CSV in one table with the majority and an HTML view', async () => {
    // People: four pairs, one tie. Judges: "alpha" votes as choices in a CSV with its own
    // column names; "beta" as JSONL choices; a third file holds two judges in a judge column.
    await writeFile(
      join(dir, 'votes.csv'),
      'prompt,left,right,choice,who\nP,p1,p2,left,r1\nQ,q1,q2,right,r1\nS,s1,s2,tie,r1\nT,t1,t2,t1,r1\nP,p2,p1,right,r1\n',
    );
    await writeFile(
      join(dir, 'alpha.csv'),
      'left,right,choice\np1,p2,1\nq1,q2,2\ns1,s2,1\nt1,t2,2\n',
    );
    await writeFile(
      join(dir, 'beta.jsonl'),
      jsonl([
        { a: 'p2', b: 'p1', winner: 'b' },
        { a: 'q2', b: 'q1', winner: 'tie' },
        { a: 't1', b: 't2', winner: 'a' },
      ]),
    );
    const html = join(dir, 'align.html');
    const cols = ['--col', 'group=prompt,a=left,b=right,winner=choice', '--col', 'rater=who'];
    const r = await runCliInProcess([
      'align',
      '--pred',
      `alpha=${join(dir, 'alpha.csv')}`,
      '--pred',
      `beta=${join(dir, 'beta.jsonl')}`,
      '--human',
      join(dir, 'votes.csv'),
      ...cols,
      '--ties',
      'half',
      '--resamples',
      '50',
      '--json',
      '--html',
      html,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const t = JSON.parse(r.stdout);
    expect(t.ties).toBe('half');
    // People: P p1 (twice), Q q2, S tie, T t1. alpha: p1 q2 s1 t2 → agree P,P,Q; T wrong.
    const alpha = t.judges.find((j: { name: string }) => j.name === 'alpha');
    expect(alpha.pairwise).toMatchObject({ votes: 5, agree: 3, disagree: 1, human_ties: 1 });
    expect(alpha.pairwise.agreement.estimate).toBeCloseTo(3 / 4, 12);
    // beta: p1, Q tie, t1 → agree P,P,T; Q a judge tie worth ½ → (3 + ½)/4.
    const beta = t.judges.find((j: { name: string }) => j.name === 'beta');
    expect(beta.pairwise.agreement.estimate).toBeCloseTo(3.5 / 4, 12);
    expect(t.judges.map((j: { name: string }) => j.name)).toEqual(['alpha', 'beta', 'majority']);
    expect(t.human.self_agreement).toMatchObject({ couples: 1, agree: 1 });
    const page = await readFile(html, 'utf8');
    expect(page).toContain('<h2>Pairwise agreement</h2>');
    expect(page).toContain('alpha · beta');
  });

  it('refuses an unknown tie policy or column key', async () => {
    const base = ['align', '--pred', join(dir, 'pred.jsonl'), '--human', join(dir, 'human.jsonl')];
    const ties = await runCliInProcess([...base, '--ties', 'maybe']);
    expect(ties.code).toBe(2);
    expect(ties.stderr).toContain('--ties must be one of exclude, half, loss');
    const col = await runCliInProcess([...base, '--col', 'colour=x']);
    expect(col.code).toBe(2);
    expect(col.stderr).toContain('--col takes KEY=COLUMN');
  });
});
