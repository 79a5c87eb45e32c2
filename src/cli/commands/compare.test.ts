// `rubrica compare` as a user runs it, on run directories written here.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../test/support/run-cli.ts';

let root: string;

function record(run: string, prompt: string, reward: number, renders = true) {
  return {
    id: `${run}-${prompt}`,
    prompt_id: prompt,
    prompt,
    run,
    scores: {
      universal: {
        id: `${run}-${prompt}`,
        prompt_id: prompt,
        reward,
        status: renders ? 'ok' : 'unscoreable',
        ...(renders ? {} : { reason: 'parse_error' }),
        reward_kind: 'universal',
        criteria: [],
        checks: { renders, output_tokens: 100 },
      },
    },
  };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'rubrica-compare-cli-'));
  // old: q1 .2, q2 .5, q3 failed (0); new: q1 .6, q2 .505 (tie within .01), q3 .3.
  const runs = {
    old: [record('old', 'q1', 0.2), record('old', 'q2', 0.5), record('old', 'q3', 0, false)],
    new: [record('new', 'q1', 0.6), record('new', 'q2', 0.505), record('new', 'q3', 0.3)],
  };
  for (const [name, rows] of Object.entries(runs)) {
    await mkdir(join(root, name));
    await writeFile(
      join(root, name, 'results.jsonl'),
      rows.map((r) => JSON.stringify(r)).join('\n'),
    );
  }
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('rubrica compare', () => {
  it('prints one row per run and the pairwise win/tie/loss', async () => {
    const r = await runCliInProcess(['compare', join(root, 'new'), join(root, 'old'), '--json']);
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout);
    expect(c.rows.map((x: { run: string }) => x.run)).toEqual(['new', 'old']);
    // old: rendered (.2 + .5)/2 = .35, all (.2 + .5 + 0)/3; 2 of 3 rendered.
    expect(c.rows[1].score_rendered.estimate).toBeCloseTo(0.35, 12);
    expect(c.rows[1].score_all.estimate).toBeCloseTo(0.7 / 3, 12);
    expect(c.rows[1].render_success_rate).toBeCloseTo(2 / 3, 12);
    expect(c.pairwise).toEqual([
      {
        a: 'new',
        b: 'old',
        prompts: 3,
        wins: 2,
        ties: 1,
        losses: 0,
        win_rate: 1,
        only_a: 0,
        only_b: 0,
        unjudged: [],
      },
    ]);
    const text = await runCliInProcess([
      'compare',
      join(root, 'new'),
      join(root, 'old'),
      '--tie-epsilon',
      '0',
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/new vs old\s+3\s+3\s+0\s+0\s+100\.0%/);
  });

  it('a directory without results.jsonl is a usage error (one line, exit 2)', async () => {
    const r = await runCliInProcess(['compare', join(root, 'old'), join(root, 'missing')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(join(root, 'missing'));
    expect(r.stdout).toBe('');
    const bad = await runCliInProcess(['compare', join(root, 'old'), '--tie-epsilon', 'wide']);
    expect(bad.code).toBe(2);
  });
});
