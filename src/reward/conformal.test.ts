// Split-conformal calibration: the offset is the ⌈(n+1)L⌉-th nonconformity score, widening
// clamps to [0, 1], only results of the calibration's kind and base level are touched, and on a
// synthetic set with known truth the calibrated intervals cover ≥ 90 % of held-out ratings
// where the judge's own (narrow) intervals cover far fewer.
import { describe, expect, it } from 'vitest';
import { type Calibration, CalibrationError, parseCalibration } from '../core/calibration.ts';
import type { RewardResult } from '../core/record.ts';
import { emptyUsage } from '../core/usage.ts';
import {
  type CalibrationPoint,
  calibrateResult,
  conformalRank,
  coverageOf,
  fitOffset,
  nonconformity,
  widen,
} from './conformal.ts';

/** Seeded uniform in [0, 1) (mulberry32): the synthetic set is the same on every run. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/**
 * Known truth h ~ U(0,1); a judge that ranks but cannot score: its reward is h shrunk toward
 * the middle plus noise (sd ≈ 0.1), its own interval ±0.03 around it.
 */
function synthetic(n: number, seed: number): CalibrationPoint[] {
  const u = rng(seed);
  return Array.from({ length: n }, () => {
    const h = u();
    const noise = (u() + u() + u() - 1.5) * 0.2; // Irwin–Hall, sd 0.1
    const r = clamp01(0.25 + 0.5 * h + noise);
    return { lo: clamp01(r - 0.03), hi: clamp01(r + 0.03), human: h };
  });
}

const CAL: Calibration = {
  kind: 'rubrica.calibration',
  version: 1,
  method: 'split-conformal',
  level: 0.9,
  confidence: null,
  base_level: 0.8,
  offset: 0.1,
  rank: 4,
  n: 4,
  reward_kind: 'ruler',
  fitted_at: '2026-12-06T00:00:00.000Z',
  judge: null,
  rating_scale: 'unit',
};

const result = (over: Partial<RewardResult>): RewardResult => ({
  reward_kind: 'ruler',
  reward: 0.5,
  status: 'ok',
  criteria: [],
  components: {},
  cached: false,
  usage: emptyUsage(),
  interval: [0.45, 0.55],
  interval_level: 0.8,
  ...over,
});

describe('split-conformal calibration', () => {
  it('the offset is the ⌈(n+1)L⌉-th smallest nonconformity score', () => {
    // s = 0.1, −0.05, 0.3, 0.2 → sorted −0.05, 0.1, 0.2, 0.3; L 0.6 → k = ⌈3⌉ = 3 → 0.2.
    const pts = [
      { lo: 0.4, hi: 0.5, human: 0.6 },
      { lo: 0.4, hi: 0.5, human: 0.45 },
      { lo: 0.4, hi: 0.5, human: 0.1 },
      { lo: 0.4, hi: 0.5, human: 0.7 },
    ];
    expect(pts.map(nonconformity).map((x) => Number(x.toFixed(12)))).toEqual([
      0.1, -0.05, 0.3, 0.2,
    ]);
    const fit = fitOffset(pts, 0.6);
    expect(fit.rank).toBe(3);
    expect(fit.offset).toBeCloseTo(0.2, 12);
    // L 0.9 needs k = ⌈4.5⌉ = 5 > 4: the whole range, never a claim four ratings cannot make.
    expect(fitOffset(pts, 0.9)).toEqual({ offset: 1, rank: null });
  });

  it('with a confidence, the rank whose coverage ≥ L with that probability', () => {
    // n 9, L 0.5: P(Binom(9, .5) ≤ k−1) first reaches 0.9 at k−1 = 6 (0.9102; ≤ 5 is 0.7461).
    expect(conformalRank(9, 0.5, 0.9)).toBe(7);
    expect(conformalRank(9, 0.5, null)).toBe(5);
    // More confidence never takes a lower rank; past n it is the whole range.
    expect(conformalRank(1000, 0.9, 0.95)!).toBeGreaterThan(conformalRank(1000, 0.9, null)!);
    expect(conformalRank(20, 0.9, 0.95)).toBeNull();
  });

  it('widens and clamps to [0, 1]; a negative offset never inverts the interval', () => {
    expect(widen([0.05, 0.9], 0.1)).toEqual([0, 1]);
    const [lo, hi] = widen([0.4, 0.5], -0.1);
    expect(lo).toBeLessThanOrEqual(hi);
    expect(lo).toBeCloseTo(0.45, 12);
  });

  it('calibrates only ok results of its kind whose interval is at its base level', () => {
    const out = calibrateResult(result({}), CAL);
    expect(out.interval![0]).toBeCloseTo(0.35, 12);
    expect(out.interval![1]).toBeCloseTo(0.65, 12);
    expect(out.interval_level).toBe(0.9);
    expect(out.interval_calibrated).toBe(true);
    for (const other of [
      result({ reward_kind: 'universal' }),
      result({ interval_level: 0.9 }),
      result({ status: 'unscoreable' }),
      result({ interval: undefined }),
    ]) {
      const same = calibrateResult(other, CAL);
      expect(same).toBe(other);
      expect(same.interval_calibrated).toBeUndefined();
    }
  });

  it('a bad calibration file is a CalibrationError with code bad_calibration', () => {
    expect(() => parseCalibration('{', 'c.json')).toThrow(CalibrationError);
    expect(() => parseCalibration(JSON.stringify({ ...CAL, level: 1.5 }), 'c.json')).toThrow(
      /level/,
    );
    expect(parseCalibration(JSON.stringify(CAL))).toEqual(CAL);
    try {
      parseCalibration('[]');
    } catch (err) {
      expect((err as CalibrationError).code).toBe('bad_calibration');
    }
  });

  it('synthetic known truth: fitted on 1000 ratings, covers ≥ 90 % of 20 000 held-out ones', () => {
    const fitHalf = synthetic(1000, 37);
    // Fresh draws from the same law, many so that their coverage is the calibration's own
    // (± 0.002), not the luck of a small test half.
    const heldOut = synthetic(20000, 38);
    // With confidence 0.95 (the CLI default) the one fitted offset covers ≥ 90 % of new ratings
    // with probability 0.95; the marginal rank only on average (on this draw: 88.8 %).
    const { offset } = fitOffset(fitHalf, 0.9, 0.95);
    const calibrated = coverageOf(
      heldOut.map((p) => {
        const [lo, hi] = widen([p.lo, p.hi], offset);
        return { lo, hi, human: p.human };
      }),
    );
    const own = coverageOf(heldOut);
    console.log(
      `conformal synthetic (n fit 1000, held out 20000, L 0.9, confidence 0.95): offset ${offset.toFixed(4)}, held-out coverage ${calibrated.coverage.toFixed(3)} (judge's own ${own.coverage.toFixed(3)}), median width ${calibrated.median_width.toFixed(4)} (judge's own ${own.median_width.toFixed(4)})`,
    );
    expect(calibrated.coverage).toBeGreaterThanOrEqual(0.9);
    // The judge's own intervals are far too narrow: without the calibration coverage is low,
    // so this test fails on code that does not widen.
    expect(own.coverage).toBeLessThan(0.5);
    // Not the trivial answer: well short of the whole range.
    expect(calibrated.median_width).toBeLessThan(0.7);
  });
});
