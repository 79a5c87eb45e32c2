// Percentile bootstrap confidence intervals, seeded so a reported interval can be reproduced.
// The caller chooses the resampling unit: items for correlations and score means over
// independent samples, whole groups (prompts) for γ and for runs with several samples per
// prompt, because items inside a group are not independent.
import { quantileSorted, sampleWithReplacement } from 'simple-statistics';
import { seededRandom } from './prng.ts';

export const DEFAULT_RESAMPLES = 2000;
export const DEFAULT_SEED = 1;
export const DEFAULT_LEVEL = 0.95;

export interface BootstrapOptions {
  /** Number of resamples; default 2,000. */
  resamples?: number;
  /** PRNG seed; default 1. Same seed, same data → same interval. */
  seed?: number;
  /** Confidence level; default 0.95. */
  level?: number;
}

/** A point estimate with its percentile bootstrap interval. Plain JSON. */
export interface Interval {
  /** The statistic on the full data; null when undefined there. */
  estimate: number | null;
  /** Lower / upper percentile of the resampled statistics; null when none was defined. */
  low: number | null;
  high: number | null;
  level: number;
  resamples: number;
  /** Resamples on which the statistic was defined (e.g. not a constant vector). */
  valid: number;
}

export function bootstrapOptions(opts: BootstrapOptions = {}): Required<BootstrapOptions> {
  return {
    resamples: opts.resamples ?? DEFAULT_RESAMPLES,
    seed: opts.seed ?? DEFAULT_SEED,
    level: opts.level ?? DEFAULT_LEVEL,
  };
}

function finiteOrNull(v: number | null): number | null {
  return v !== null && Number.isFinite(v) ? v : null;
}

/**
 * Resamples `units` with replacement (same size as the data), applies `statistic` to each
 * resample, and returns the (1−level)/2 and (1+level)/2 percentiles of the defined values
 * (linear interpolation, numpy's default). Resamples where the statistic is undefined are
 * dropped and counted out of `valid`. When the estimate on the full data is undefined, or there
 * are no units, the interval is null too.
 */
export function bootstrapCI<T>(
  units: readonly T[],
  statistic: (sample: readonly T[]) => number | null,
  opts: BootstrapOptions = {},
): Interval {
  const { resamples, seed, level } = bootstrapOptions(opts);
  const estimate = units.length > 0 ? finiteOrNull(statistic(units)) : null;
  const empty = { estimate, low: null, high: null, level, resamples, valid: 0 };
  if (estimate === null || resamples <= 0) return empty;
  const random = seededRandom(seed);
  const values: number[] = [];
  for (let b = 0; b < resamples; b++) {
    const v = finiteOrNull(statistic(sampleWithReplacement(units as T[], units.length, random)));
    if (v !== null) values.push(v);
  }
  if (values.length === 0) return empty;
  values.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return {
    estimate,
    low: quantileSorted(values, tail),
    high: quantileSorted(values, 1 - tail),
    level,
    resamples,
    valid: values.length,
  };
}
