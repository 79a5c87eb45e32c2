// An eval run's judge intervals (issue 37): means of the rewards' [lo, hi] overall, per prompt
// and per run, by hand; greedy (point) intervals counted apart; records without an interval or
// not judged left out; the summary, the text line and the report tile carry them.
import { describe, expect, it } from 'vitest';
import { scoreRecord } from '../../test/support/score-record.ts';
import { emptyUsage } from '../core/usage.ts';
import { formatJudgeIntervals, judgeIntervals } from './judge-intervals.ts';
import { headlineTiles } from './run-report.ts';
import { summarizeRun } from './summary.ts';
import type { EvalRecord } from './types.ts';

const ok = (prompt_id: string, run: string, lo: number, hi: number, scoring = 'expected') => ({
  prompt_id,
  run,
  score: scoreRecord({
    prompt_id,
    reward: (lo + hi) / 2,
    interval: [lo, hi],
    interval_level: 0.9,
    scoring: scoring as 'expected' | 'greedy',
  }),
});

const ROWS = [
  ok('a', 'm1', 0.2, 0.6),
  ok('a', 'm2', 0.4, 0.5),
  ok('b', 'm1', 0.1, 0.9),
  ok('b', 'm2', 0.7, 0.7, 'greedy'),
  // Not judged, or judged before intervals existed: left out.
  {
    prompt_id: 'b',
    run: 'm1',
    score: scoreRecord({ status: 'unscoreable', reason: 'judge_error', interval: [0, 1] }),
  },
  { prompt_id: 'c', run: 'm1', score: scoreRecord({ prompt_id: 'c' }) },
];

describe('judge intervals of an eval run', () => {
  it('averages lo, hi and width overall, per prompt and per run, by hand', () => {
    const j = judgeIntervals(ROWS)!;
    expect(j.n).toBe(4);
    expect(j.lo).toBeCloseTo((0.2 + 0.4 + 0.1 + 0.7) / 4, 12);
    expect(j.hi).toBeCloseTo((0.6 + 0.5 + 0.9 + 0.7) / 4, 12);
    // Widths 0.4, 0.1, 0.8, 0: mean 0.325, median (0.1 + 0.4) / 2.
    expect(j.width).toBeCloseTo(0.325, 12);
    expect(j.median_width).toBeCloseTo(0.25, 12);
    expect(j.level).toBe(0.9);
    expect(j.scoring).toEqual({ expected: 3, greedy: 1 });
    expect(j.per_prompt.map((p) => [p.prompt_id, p.n])).toEqual([
      ['a', 2],
      ['b', 2],
    ]);
    expect(j.per_prompt[0]!.width).toBeCloseTo(0.25, 12);
    expect(j.per_prompt[1]!.lo).toBeCloseTo(0.4, 12);
    expect(j.per_prompt[1]!.width).toBeCloseTo(0.4, 12);
    expect(j.per_run.map((r) => r.run)).toEqual(['m1', 'm2']);
    expect(j.per_run[0]!.width).toBeCloseTo(0.6, 12);
    expect(j.per_run[1]!.width).toBeCloseTo(0.05, 12);
  });

  it('is null when no judged record has an interval', () => {
    expect(judgeIntervals(ROWS.slice(4))).toBeNull();
  });

  it('says level, mean interval, widths, n and scoring in one text line', () => {
    const line = formatJudgeIntervals(judgeIntervals(ROWS)!);
    expect(line).toBe(
      'judge interval (90%) mean [0.350, 0.675], width mean 0.325 median 0.250 over 4 rewards (expected 3, greedy 1); widest prompt b 0.400',
    );
  });

  it('is in the run summary per reward kind and a headline tile of the report', () => {
    const records: EvalRecord[] = ROWS.map((r, i) => ({
      id: `r${i}`,
      prompt_id: r.prompt_id,
      prompt: 'x',
      run: r.run,
      scores: { ruler: r.score },
    }));
    const summary = summarizeRun(records, { resamples: 50 });
    expect(summary.rewards.ruler!.judge_intervals?.n).toBe(4);
    expect(summary.rewards.ruler!.judge_intervals?.width).toBeCloseTo(0.325, 12);
    const tiles = headlineTiles({
      kinds: ['ruler'],
      rewards: summary.rewards,
      usage: { judge: emptyUsage(), policy: null },
    });
    const tile = tiles.find((t) => t.label === 'ruler judge interval width');
    expect(tile?.value).toBe('0.325');
    expect(tile?.hint).toContain('mean [0.350, 0.675] at 90%');
  });
});
