// The decisions `--against REF` prints (bench/compare-stats.ts): the ratio and its interval
// over rounds, the verdict, and refusing a ratio over a failed baseline. No timing here: the
// inputs are fixed per-round costs.
import { describe, expect, it } from 'vitest';
import {
  baselineProblem,
  benchExitCode,
  median,
  medianRange,
  ratioInterval,
  roundOrder,
  tQuantile975,
  verdict,
} from '../../bench/compare-stats.ts';

describe('median', () => {
  it('is the middle value, or the mean of the middle two, whatever the order', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
  it('prints a reading over rounds as median [min, max]', () => {
    expect(medianRange([2.31, 2.93, 2.75])).toBe('2.75× [2.31, 2.93]');
  });
});

describe('ratioInterval', () => {
  it('is the geometric mean of the per-round ratios with a t-interval on their logs', () => {
    // log ratios: ln 1.04, ln 1.06, ln 1.05, ln 1.05
    const ref = [10, 20, 10, 40];
    const cand = [10.4, 21.2, 10.5, 42];
    const iv = ratioInterval(cand, ref);
    const logs = [1.04, 1.06, 1.05, 1.05].map(Math.log);
    const mean = logs.reduce((a, b) => a + b) / 4;
    const sd = Math.sqrt(logs.reduce((s, x) => s + (x - mean) ** 2, 0) / 3);
    expect(iv.rounds).toBe(4);
    expect(iv.ratio).toBeCloseTo(Math.exp(mean), 10);
    expect(iv.lo).toBeCloseTo(Math.exp(mean - 3.182 * (sd / 2)), 10);
    expect(iv.hi).toBeCloseTo(Math.exp(mean + 3.182 * (sd / 2)), 10);
    expect(iv.lo).toBeGreaterThan(1);
    expect(verdict(iv)).toBe('slower');
  });

  it('pairs by round, so a machine that slows both sides alike does not widen the interval', () => {
    // The machine's load doubles the cost of both sides in rounds 2 and 4; the ratio stays 0.9.
    const iv = ratioInterval([9, 18, 9, 18, 9], [10, 20, 10, 20, 10]);
    expect(iv.ratio).toBeCloseTo(0.9, 10);
    expect(iv.hi - iv.lo).toBeLessThan(1e-9);
    expect(verdict(iv)).toBe('faster');
  });

  it('leaves out rounds where a side is missing or not a positive number', () => {
    const iv = ratioInterval([1.1, Number.NaN, 0, 1.1], [1, 1, 1, 1]);
    expect(iv.rounds).toBe(2);
    expect(ratioInterval([], []).rounds).toBe(0);
  });
});

describe('verdict', () => {
  const iv = (lo: number, hi: number, rounds = 5) => ({
    ratio: Math.sqrt(lo * hi),
    lo,
    hi,
    rounds,
  });
  it('says too wide to decide when the interval includes 1 and reaches past ±5 %', () => {
    expect(verdict(iv(0.93, 1.07))).toBe('too wide to decide');
    expect(verdict(iv(0.98, 1.07))).toBe('too wide to decide');
    expect(verdict(iv(0.9, 1.01))).toBe('too wide to decide');
  });
  it('says same within ±5 % only when the whole interval is inside the band', () => {
    expect(verdict(iv(0.97, 1.04))).toBe('same within ±5 %');
  });
  it('calls any interval that excludes 1 a change', () => {
    expect(verdict(iv(1.01, 1.09))).toBe('slower');
    expect(verdict(iv(0.9, 0.99))).toBe('faster');
  });
  it('never decides from one round', () => {
    expect(verdict(ratioInterval([2], [1]))).toBe('too wide to decide');
    expect(verdict(iv(1.2, 1.3, 1))).toBe('too wide to decide');
  });
});

describe('baselines', () => {
  it('refuses a baseline that drew nothing, part of its files, or could not run', () => {
    expect(baselineProblem({ files: 8, ok: 0 })).toBe('baseline drew 0 of 8 files');
    expect(baselineProblem({ files: 8, ok: 7 })).toBe('baseline drew 7 of 8 files');
    expect(baselineProblem({ files: 8, ok: 0, error: 'rsvg-convert not found' })).toBe(
      'rsvg-convert not found',
    );
    expect(baselineProblem({ files: 8, ok: 8 })).toBeNull();
  });
  it('makes the bench exit non-zero when any of its baselines failed', () => {
    expect(benchExitCode([{ files: 8, ok: 8 }])).toBe(0);
    expect(benchExitCode([])).toBe(0);
    expect(
      benchExitCode([
        { files: 8, ok: 8 },
        { files: 8, ok: 0 },
      ]),
    ).toBe(1);
  });
});

describe('rounds', () => {
  it('alternates which side runs first', () => {
    expect(roundOrder(1)).toEqual(['candidate', 'ref']);
    expect(roundOrder(2)).toEqual(['ref', 'candidate']);
    expect(roundOrder(3)).toEqual(['candidate', 'ref']);
  });
  it('uses the t quantile for small samples and the normal one beyond 30', () => {
    expect(tQuantile975(1)).toBeCloseTo(12.706, 3);
    expect(tQuantile975(4)).toBeCloseTo(2.776, 3);
    expect(tQuantile975(100)).toBeCloseTo(1.96, 3);
    expect(tQuantile975(0)).toBe(Number.POSITIVE_INFINITY);
  });
});
