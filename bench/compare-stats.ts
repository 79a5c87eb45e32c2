// Same-run comparison statistics shared by bench:render, bench:domains and bench:serve when
// run with `--against REF`. Pure functions only (no processes, no clocks), so the decisions
// a benchmark prints — the ratio, its interval, "too wide to decide", whether a baseline
// failed — are tested in bench/compare-stats.test.ts while the timings themselves are not.
//
// Why log ratios over rounds: each round measures the candidate and REF a few seconds apart
// on the same machine, so whatever else the machine is doing moves both alike; the per-round
// ratio cancels that drift, and its logarithm makes "2× slower" and "2× faster" symmetric
// so a t-interval over the rounds is a fair summary. The interval is over rounds (the unit
// that is repeated), never over files of one round (files of one run share its noise).

/** Two-sided 95 % Student t quantiles, t_{0.975, df}, df = 1…30; beyond 30 the normal 1.96. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145,
  2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048,
  2.045, 2.042,
];

export function tQuantile975(df: number): number {
  if (!(df >= 1)) return Number.POSITIVE_INFINITY;
  return T975[Math.floor(df) - 1] ?? 1.96;
}

/** The median of a list of numbers (the mean of the middle two for an even count); NaN if empty. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** `median× [min, max]` of per-round ratios, as every bench prints a reading over rounds. */
export function medianRange(xs: readonly number[]): string {
  return `${median(xs).toFixed(2)}× [${Math.min(...xs).toFixed(2)}, ${Math.max(...xs).toFixed(2)}]`;
}

export interface RatioInterval {
  /** Geometric mean over rounds of candidate/REF (cost per file: > 1 means slower). */
  ratio: number;
  /** 95 % confidence interval of that ratio (t-interval on the log ratios). */
  lo: number;
  hi: number;
  /** Rounds that produced a ratio (both sides measured, both positive). */
  rounds: number;
}

/**
 * candidate/REF of a cost (CPU-s or wall-s per file), paired by round. Rounds where either
 * side is missing or not a positive finite number are left out, never guessed.
 */
export function ratioInterval(candidate: number[], ref: number[]): RatioInterval {
  const logs: number[] = [];
  for (let i = 0; i < Math.min(candidate.length, ref.length); i++) {
    const c = candidate[i]!;
    const r = ref[i]!;
    if (c > 0 && r > 0 && Number.isFinite(c) && Number.isFinite(r)) logs.push(Math.log(c / r));
  }
  const n = logs.length;
  if (n === 0) return { ratio: Number.NaN, lo: Number.NaN, hi: Number.NaN, rounds: 0 };
  const mean = logs.reduce((s, x) => s + x, 0) / n;
  if (n === 1) {
    return { ratio: Math.exp(mean), lo: 0, hi: Number.POSITIVE_INFINITY, rounds: 1 };
  }
  const variance = logs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1);
  const half = tQuantile975(n - 1) * Math.sqrt(variance / n);
  return { ratio: Math.exp(mean), lo: Math.exp(mean - half), hi: Math.exp(mean + half), rounds: n };
}

export type Verdict = 'slower' | 'faster' | 'same within ±5 %' | 'too wide to decide';

/**
 * What an interval lets one say about a cost ratio, at a threshold of `band` (5 %):
 *  - it excludes 1: a real change, `slower` or `faster` (however small);
 *  - it includes 1 and lies inside [1 − band, 1 + band]: no change as large as the band;
 *  - it includes 1 and reaches past either edge of the band: too wide to decide — more
 *    rounds are needed before anyone can claim "no slowdown".
 */
export function verdict(iv: RatioInterval, band = 0.05): Verdict {
  if (!(iv.rounds >= 2) || Number.isNaN(iv.lo) || Number.isNaN(iv.hi)) return 'too wide to decide';
  if (iv.lo > 1) return 'slower';
  if (iv.hi < 1) return 'faster';
  if (iv.lo >= 1 - band && iv.hi <= 1 + band) return 'same within ±5 %';
  return 'too wide to decide';
}

/** One line for a row: `1.052× [1.031, 1.074] over 6 rounds: slower`. */
export function formatInterval(iv: RatioInterval, unit = 'round'): string {
  if (iv.rounds === 0) return `no ${unit} measured both sides`;
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '∞');
  return `${f(iv.ratio)}× [${f(iv.lo)}, ${f(iv.hi)}] over ${iv.rounds} ${unit}${iv.rounds > 1 ? 's' : ''}: ${verdict(iv)}`;
}

export interface BaselineRun {
  /** Files the baseline was given. */
  files: number;
  /** Files it drew. */
  ok: number;
  /** Why it could not run at all (tool missing, process failed), if so. */
  error?: string;
}

/**
 * Why a baseline cannot be divided by, or null when it can. A ratio over a baseline that drew
 * nothing is Infinity, and over one that drew part of its files it compares different work
 * (a skipped file costs nothing): both are refused, with the reason printed in the row.
 */
export function baselineProblem(b: BaselineRun): string | null {
  if (b.error) return b.error;
  if (b.files <= 0) return 'baseline was given no files';
  if (b.ok <= 0) return `baseline drew 0 of ${b.files} files`;
  if (b.ok < b.files) return `baseline drew ${b.ok} of ${b.files} files`;
  return null;
}

/**
 * A bench's exit code: non-zero when any of its own baselines failed, so a CI job or a
 * script cannot take a table of ratios over nothing for a result.
 */
export function benchExitCode(baselines: BaselineRun[]): number {
  return baselines.some((b) => baselineProblem(b) !== null) ? 1 : 0;
}

/** Which side runs first in a round: alternate, so neither always gets the cooler machine. */
export function roundOrder(round: number): ['candidate', 'ref'] | ['ref', 'candidate'] {
  return round % 2 === 1 ? ['candidate', 'ref'] : ['ref', 'candidate'];
}
