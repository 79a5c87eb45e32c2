// Split-conformal calibration of reward intervals (issue 37 item 2). The judge's own interval
// (interval.ts: from the item distributions, a point under greedy scoring) says how unsure the
// judge is of its own answer, not how far it is from people. Given human ratings of rollouts
// the judge scored, the nonconformity of one rollout is how far its rating h lies outside its
// interval [lo, hi]: s = max(lo − h, h − hi) (negative inside; the CQR score of Romano et al.
// 2019). With s₁ ≤ … ≤ sₙ from n calibration rollouts, q = s₍k₎ for k = ⌈(n+1)·L⌉ widens every
// new interval to [lo − q, hi + q] and then covers a new rollout's human rating with
// probability ≥ L, for rollouts exchangeable with the calibration set. k > n (too few ratings
// for the level) gives the whole range: a calibration never claims more than its n supports.
import { type Calibration, CalibrationError } from '../core/calibration.ts';
import type { RewardResult } from '../core/record.ts';

/** One calibration rollout: the judge's interval and the human rating, both in [0, 1]. */
export interface CalibrationPoint {
  lo: number;
  hi: number;
  human: number;
}

/** How far the rating lies outside the interval (≤ 0 inside). */
export const nonconformity = (p: CalibrationPoint) => Math.max(p.lo - p.human, p.human - p.hi);

/** The conformal offset at `level` from calibration points; see the header. */
export function fitOffset(
  points: readonly CalibrationPoint[],
  level: number,
): { offset: number; rank: number | null } {
  if (points.length === 0) throw new CalibrationError('no calibration points');
  const s = points.map(nonconformity).sort((a, b) => a - b);
  const k = Math.ceil((s.length + 1) * level - 1e-9);
  // Too few points for this level: only the whole range is honest (offset 1 covers [0, 1]).
  if (k > s.length) return { offset: 1, rank: null };
  return { offset: s[k - 1]!, rank: k };
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** An interval widened by a calibration's offset and clamped to [0, 1] (never inverted). */
export function widen(interval: readonly [number, number], offset: number): [number, number] {
  const lo = clamp01(interval[0] - offset);
  const hi = clamp01(interval[1] + offset);
  return lo <= hi ? [lo, hi] : [clamp01((lo + hi) / 2), clamp01((lo + hi) / 2)];
}

/**
 * A reward result with its interval calibrated, when the calibration is for its kind and the
 * result has an interval at the calibration's base level; anything else is returned as is
 * (no `interval_calibrated`), so a record never claims a calibration it did not get.
 */
export function calibrateResult<T extends RewardResult>(r: T, cal: Calibration): T {
  if (r.reward_kind !== cal.reward_kind || r.status !== 'ok' || !r.interval) return r;
  if (r.interval_level === undefined || Math.abs(r.interval_level - cal.base_level) > 1e-12)
    return r;
  return {
    ...r,
    interval: widen(r.interval, cal.offset),
    interval_level: cal.level,
    interval_calibrated: true,
  };
}

/** Coverage and median width of intervals against ratings (a report, not a fit). */
export function coverageOf(points: readonly CalibrationPoint[]): {
  n: number;
  coverage: number;
  median_width: number;
} {
  const n = points.length;
  if (n === 0) return { n, coverage: Number.NaN, median_width: Number.NaN };
  const covered = points.filter((p) => p.human >= p.lo - 1e-12 && p.human <= p.hi + 1e-12).length;
  const widths = points.map((p) => p.hi - p.lo).sort((a, b) => a - b);
  const mid = Math.floor(n / 2);
  const median = n % 2 ? widths[mid]! : (widths[mid - 1]! + widths[mid]!) / 2;
  return { n, coverage: covered / n, median_width: median };
}
