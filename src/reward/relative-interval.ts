// The interval of a relative (pairwise) reward (issue 37). A Bradley–Terry score is not read
// from a judge's score distribution, so the absolute record's interval says nothing about
// it. What makes it uncertain is which comparisons happened to be answered how: the interval
// is a percentile bootstrap over the compared PAIRS — each pair's answers in both orders
// resampled together, so every resample still cancels the judge's first-position bias the
// way the data did — refitting the same Bradley–Terry model each time. With fewer than
// MIN_PAIRS answered pairs a bootstrap only repeats the data, so no interval is claimed and
// the record says why. Deterministic: a fixed seed over comparisons already in the group's
// canonical order, so a rollout's interval does not depend on the order its group arrived in.
import { type Comparison, fitBradleyTerry } from './bradley-terry.ts';

/** Resamples per group: a percentile interval at 0.9 rests on its ~10 outermost values each side. */
export const BOOTSTRAP_RESAMPLES = 200;
/** Fewer answered pairs than this: no interval (a resample of one or two pairs is the data). */
export const MIN_PAIRS = 3;
const SEED = 0x3737;

export type RelativeInterval =
  | { method: 'pair-bootstrap'; resamples: number; pairs: number; intervals: [number, number][] }
  | { method: 'none'; pairs: number; note: string };

/** A small seeded generator (mulberry32): the interval must be reproducible to the bit. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Each position's central interval at `level` for the Bradley–Terry scores of a group of `n`
 * (`scores`, the fit on every comparison), widened when needed to hold the point itself.
 */
export function relativeIntervals(
  n: number,
  comparisons: readonly Comparison[],
  scores: readonly number[],
  level: number,
  resamples = BOOTSTRAP_RESAMPLES,
): RelativeInterval {
  const byPair = new Map<string, Comparison[]>();
  for (const c of comparisons) {
    const key = c.i < c.j ? `${c.i},${c.j}` : `${c.j},${c.i}`;
    const list = byPair.get(key);
    if (list) list.push(c);
    else byPair.set(key, [c]);
  }
  const pairs = [...byPair.values()];
  if (pairs.length < MIN_PAIRS)
    return {
      method: 'none',
      pairs: pairs.length,
      note: `${pairs.length} compared pair(s): a bootstrap over fewer than ${MIN_PAIRS} pairs only repeats them`,
    };
  const random = seeded(SEED);
  const draws: number[][] = Array.from({ length: n }, () => []);
  for (let b = 0; b < resamples; b++) {
    const sample: Comparison[] = [];
    for (let k = 0; k < pairs.length; k++)
      sample.push(...pairs[Math.floor(random() * pairs.length)]!);
    const fit = fitBradleyTerry(n, sample);
    for (const [i, s] of fit.scores.entries()) draws[i]!.push(s);
  }
  const a = (1 - level) / 2;
  const intervals = draws.map((d, i): [number, number] => {
    d.sort((x, y) => x - y);
    const lo = d[Math.floor(a * (d.length - 1))]!;
    const hi = d[Math.ceil((1 - a) * (d.length - 1))]!;
    return [Math.min(lo, scores[i]!), Math.max(hi, scores[i]!)];
  });
  return { method: 'pair-bootstrap', resamples, pairs: pairs.length, intervals };
}
