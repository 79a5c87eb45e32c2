// The headline tiles say what was measured and on how many: "not judged" with no number
// when the judge never answered, the bare mean with "n too small" under the CI minimum,
// and an n on every tile.
import { describe, expect, it } from 'vitest';
import { fixtureComponents } from '../../test/support/score-record.ts';
import type { ScoreRecord } from '../core/record.ts';
import { emptyUsage } from '../core/usage.ts';
import { headlineTiles } from './run-report.ts';
import { summarizeRun } from './summary.ts';
import type { EvalRecord } from './types.ts';

function rec(i: number, prompts: number, over: Partial<ScoreRecord>, blank = false): EvalRecord {
  const score: ScoreRecord = {
    id: `r${i}`,
    prompt_id: `p${i % prompts}`,
    reward: 0.6,
    status: 'ok',
    reward_kind: 'universal',
    components: fixtureComponents('universal', over.reward ?? 0.6, over.status),
    criteria: [],
    checks: {
      renders: true,
      blank,
      ink_coverage: 0.3,
      clipped: false,
      text_in_image: i % 7 === 0,
      clutter: false,
      output_tokens: 100 + i,
      svg_tokens: 90,
      dwt_stages: [],
      dwt_valid: false,
      values: {},
    },
    cached: false,
    usage: emptyUsage(),
    render_ms: 1,
    ...over,
  };
  return {
    id: `r${i}`,
    prompt_id: score.prompt_id!,
    prompt: 'x',
    run: 'm',
    scores: { universal: score },
  };
}

const tilesOf = (records: EvalRecord[]) =>
  headlineTiles({
    kinds: ['universal'],
    rewards: summarizeRun(records, { resamples: 200 }).rewards,
    usage: { judge: emptyUsage(), policy: null },
  });

describe('headline tiles', () => {
  it('say "0 of 300 judged" when the judge never answered, with no score, the same way round as "299 of 300 not judged"', () => {
    // The case of the issue: one blank picture (a rule-based 0) and 299 rollouts not judged.
    const records = Array.from({ length: 300 }, (_, i) =>
      i === 0
        ? rec(i, 30, { status: 'unscoreable', reason: 'blank', reward: 0 }, true)
        : rec(i, 30, { status: 'grader_error', reason: 'judge_error', reward: 0 }),
    );
    const tiles = tilesOf(records);
    const byLabel = Object.fromEntries(tiles.map((t) => [t.label, t]));
    for (const label of ['universal score · rendered', 'universal score · all samples']) {
      expect(byLabel[label]).toEqual({
        label,
        value: 'not judged',
        hint: '0 of 300 judged (299 not judged, 1 failed before judging)',
      });
    }
    expect(byLabel['universal not judged']).toMatchObject({ value: '299 of 300' });
    // No tile reads "not judged: 0 of N" (it meant "none judged", beside "299 of 300 not judged").
    expect(JSON.stringify(tiles)).not.toMatch(/not judged: 0 of/);
    const all = JSON.stringify(tiles.filter((t) => t.label.includes('score')));
    expect(all).not.toContain('0.000');
    expect(all).not.toContain('CI');
  });

  it('show the mean without an interval when too few prompts back it', () => {
    const tiles = tilesOf(Array.from({ length: 6 }, (_, i) => rec(i, 3, {})));
    const t = tiles.find((x) => x.label === 'universal score · rendered')!;
    expect(t.value).toBe('0.600');
    expect(t.hint).toBe(
      'n too small: 3 prompts (a 95% CI needs ≥ 10); n = 6 samples over 3 prompts',
    );
  });

  it('give every figure its n', () => {
    const tiles = tilesOf(
      Array.from({ length: 40 }, (_, i) => rec(i, 20, { reward: (i % 10) / 10 })),
    );
    const t = tiles.find((x) => x.label === 'universal score · all samples')!;
    expect(t.hint).toMatch(
      /^95% CI 0\.\d{3}–0\.\d{3}; n = 40 samples over 20 prompts; failures count 0$/,
    );
    expect(tiles.find((x) => x.label === 'render success')!.hint).toBe('40 of 40 rendered');
    expect(tiles.find((x) => x.label === 'text in image')!.hint).toBe(
      '6 of 40 rendered (reward-hack monitor)',
    );
    expect(tiles.find((x) => x.label === 'output tokens')!.hint).toMatch(/^mean of n = 40; p90 /);
    for (const tile of tiles) {
      if (tile.label === 'judge calls') continue;
      expect(`${tile.value} ${tile.hint}`, tile.label).toMatch(/\bn = \d+|\d+ of \d+/);
    }
  });
});
