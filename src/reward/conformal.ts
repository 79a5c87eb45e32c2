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

/**
 * The rank k of the nonconformity score to take. Marginal (`confidence` null): ⌈(n+1)L⌉, whose
 * coverage is ≥ L on average over calibration sets. With a confidence 1−δ: the smallest k whose
 * coverage — distributed Beta(k, n+1−k) over calibration sets — is ≥ L with probability ≥ 1−δ,
 * i.e. P(Binom(n, L) ≤ k−1) ≥ 1−δ (Vovk 2012's training-conditional form), so the one
 * calibration a paper uses covers L of new ratings, not just on average. null: k > n.
 */
export function conformalRank(n: number, level: number, confidence: number | null): number | null {
  if (confidence === null) {
    const k = Math.ceil((n + 1) * level - 1e-9);
    return k > n ? null : k;
  }
  // One pass over m = k−1, the CDF summed in log space so n of many thousands neither under-
  // nor overflows.
  const target = Math.log(confidence);
  const lp = Math.log(level);
  const lq = Math.log1p(-level);
  let logPmf = n * lq; // P(Binom = 0)
  let logCdf = logPmf;
  for (let m = 0; m < n; m++) {
    if (m > 0) {
      logPmf += Math.log((n - m + 1) / m) + lp - lq;
      const hi = Math.max(logCdf, logPmf);
      logCdf = hi + Math.log(Math.exp(logCdf - hi) + Math.exp(logPmf - hi));
    }
    if (logCdf >= target - 1e-12) return m + 1;
  }
  return null;
}

/** The conformal offset at `level` from calibration points; see the header and conformalRank. */
export function fitOffset(
  points: readonly CalibrationPoint[],
  level: number,
  confidence: number | null = null,
): { offset: number; rank: number | null } {
  if (points.length === 0) throw new CalibrationError('no calibration points');
  const s = points.map(nonconformity).sort((a, b) => a - b);
  const k = conformalRank(s.length, level, confidence);
  // Too few points for this level: only the whole range is honest (offset 1 covers [0, 1]).
  if (k === null) return { offset: 1, rank: null };
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
