// The judging strategy: how one picture's items are asked and read (greedy answer or the
// expected value of the judge's score distribution), whether pictures are judged alone or
// against each other, by one judge or a panel. Parsed once from one set of flags
// (src/cli/judging-flags.ts) or given by a library caller, then passed down unchanged to the
// judge and the pipeline, so every command gains every mode together. Plain data: it is
// part of cache keys and of each record's provenance.

import type { Calibration } from '../core/calibration.ts';

/**
 * How an item's score is read. `greedy`: the number the judge wrote. `expected`: Σ p·v over
 * the judge's distribution of allowed answers at the score token (needs logprobs; a judge that
 * returns none is a fault). `auto`: expected when usable logprobs come back, else greedy.
 */
export type ScoringMode = 'expected' | 'greedy' | 'auto';
export const SCORING_MODES: readonly ScoringMode[] = ['expected', 'greedy', 'auto'];

/** What was actually used for one answer (`auto` resolves to one of these). */
export type ScoringUsed = 'expected' | 'greedy';

/** Absolute: each picture alone (today's behaviour); pairwise / group: a GRPO group together. */
export type JudgingMode = 'absolute' | 'pairwise' | 'group';
export const JUDGING_MODES: readonly JudgingMode[] = ['absolute', 'pairwise', 'group'];

/** Which ordered pairs of a group are compared under pairwise judging. */
export type PairsMode = 'circular' | 'all';
export const PAIRS_MODES: readonly PairsMode[] = ['circular', 'all'];

/**
 * Which orders a group is shown in under group judging: `mirror` forward and reversed (2 calls
 * a chunk; cancels a position effect linear in the position), `rotation` every cyclic rotation
 * (n calls a chunk of n; cancels any position effect). See src/pipeline/group-relative.ts.
 */
export type GroupOrders = 'mirror' | 'rotation';
export const GROUP_ORDERS: readonly GroupOrders[] = ['mirror', 'rotation'];

/** The one judging strategy every command and the library pass down. */
export interface JudgingStrategy {
  /** How an item's score is read (default `auto`, see DEFAULT_STRATEGY). */
  scoring: ScoringMode;
  /** Absolute, pairwise or group judging (default `absolute`). */
  judging: JudgingMode;
  /** Pairwise: circular (N calls per group of N) or all ordered pairs (N(N−1)). */
  pairs: PairsMode;
  /** Group: the orders each chunk is shown in (default `mirror`). */
  groupOrders?: GroupOrders;
  /**
   * Judge specs of a panel, the first being the judge a command is given (`--judge a --judge
   * b`, or `--judge a,b`); empty (or one spec): one judge, no panel. Scorers build the judges
   * after the first from these specs with the first judge's client options.
   */
  panel: readonly string[];
  /** Panel: judges that must answer for the panel to answer (default: all of them). */
  quorum: number | null;
  /**
   * Panel: one weight ≥ 0 per judge of `panel`, in order (`--panel-weights`, a list or a file
   * from `align --fit-weights`); absent: equal weights.
   */
  panelWeights?: readonly number[];
  /** Level of the reward interval `interval: [lo, hi]` (default 0.9). */
  intervalLevel: number;
  /**
   * A split-conformal calibration (`--calibration FILE`, src/core/calibration.ts): its reward
   * kind's intervals are computed at its base level, widened by its offset and recorded at its
   * level with `interval_calibrated: true`. Absent: the judge's own intervals.
   */
  calibration?: Calibration;
}

/**
 * What a caller that says nothing gets (issue 37): `auto` scoring — each item asked as one
 * digit 0–9 with logprobs and read as Σ p·v when the server returns usable logprobs, else the
 * written digit ÷ 9 (greedy on the digit scale, a resolution of 1/9: see
 * docs/rubrics-and-judging.md); absolute judging by one judge.
 */
export const DEFAULT_STRATEGY: Readonly<JudgingStrategy> = Object.freeze({
  scoring: 'auto',
  judging: 'absolute',
  pairs: 'circular',
  panel: Object.freeze([]) as readonly string[],
  quorum: null,
  intervalLevel: 0.9,
});

/**
 * A complete strategy from a partial one (library callers name only what they change).
 * @example
 * ```ts
 * const s = judgingStrategy({ scoring: 'expected' });
 * ```
 */
export function judgingStrategy(partial: Partial<JudgingStrategy> = {}): JudgingStrategy {
  return { ...DEFAULT_STRATEGY, ...partial };
}

export function isScoringMode(v: unknown): v is ScoringMode {
  return typeof v === 'string' && (SCORING_MODES as readonly string[]).includes(v);
}
export function isJudgingMode(v: unknown): v is JudgingMode {
  return typeof v === 'string' && (JUDGING_MODES as readonly string[]).includes(v);
}
export function isGroupOrders(v: unknown): v is GroupOrders {
  return typeof v === 'string' && (GROUP_ORDERS as readonly string[]).includes(v);
}
export function isPairsMode(v: unknown): v is PairsMode {
  return typeof v === 'string' && (PAIRS_MODES as readonly string[]).includes(v);
}
