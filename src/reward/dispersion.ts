// RL prompt selection (PrismaForge): sample k rollouts per instruction from the SFT policy,
// score them, and keep the instructions whose scores disperse most — U = (1/k)·Σ(S_j − S̄)²
// (population variance, src/reward/grpo.ts) — where the policy sometimes succeeds and
// sometimes fails, the capability frontier that gives GRPO a signal. A grader fault is not
// a score (it is left out of its instruction's k); a rule-based zero is a score of 0.
import { isGraderFaultRecord } from '../core/status.ts';
import { dispersion } from './grpo.ts';

export interface ScoredSample {
  prompt_id: string;
  reward: number;
  status: string;
  /** Files from before `grader_error` existed wrote a fault as `unscoreable` + this reason. */
  reason?: string | null;
}

/**
 * One instruction's spread of scores: how many were counted, their mean and their
 * dispersion U (grader faults left out and counted apart).
 */
export interface PromptDispersion {
  prompt_id: string;
  /** Scores counted (grader faults excluded). */
  k: number;
  mean: number;
  dispersion: number;
  /** Grader faults left out. */
  faults: number;
}

/**
 * How `selectPrompts` keeps instructions: the top k, a top fraction, a minimum U, and the fewest
 * scores an instruction needs to be ranked.
 */
export interface SelectCriteria {
  topK?: number;
  topFraction?: number;
  minDispersion?: number;
  /** Instructions with fewer scores than this are not ranked (default 2). */
  minK?: number;
}

/** Groups scores by instruction and computes each one's k, mean and U. */
export function dispersions(samples: Iterable<ScoredSample>): PromptDispersion[] {
  const by = new Map<string, { rewards: number[]; faults: number }>();
  for (const s of samples) {
    let g = by.get(s.prompt_id);
    if (!g) {
      g = { rewards: [], faults: 0 };
      by.set(s.prompt_id, g);
    }
    if (isGraderFaultRecord(s)) g.faults++;
    else g.rewards.push(s.status === 'ok' ? s.reward : 0);
  }
  return [...by].map(([prompt_id, g]) => ({
    prompt_id,
    k: g.rewards.length,
    mean: g.rewards.length ? g.rewards.reduce((a, b) => a + b, 0) / g.rewards.length : 0,
    dispersion: dispersion(g.rewards),
    faults: g.faults,
  }));
}

/**
 * Ranks by U (highest first; ties by prompt id, so a re-run selects the same set), drops
 * those under `minDispersion` or with too few scores, then keeps the top k or top fraction
 * (rounded up) of what is left.
 * @example
 * ```ts
 * const scores = records.map((r) => ({ ...r, prompt_id: r.prompt_id ?? r.id }));
 * const chosen = selectPrompts(dispersions(scores), { topFraction: 0.3 });
 * ```
 */
export function selectPrompts(all: readonly PromptDispersion[], c: SelectCriteria) {
  const minK = c.minK ?? 2;
  const ranked = all
    .filter((d) => d.k >= minK)
    .sort((a, b) => b.dispersion - a.dispersion || (a.prompt_id < b.prompt_id ? -1 : 1));
  let chosen = ranked.filter(
    (d) => c.minDispersion === undefined || d.dispersion >= c.minDispersion,
  );
  if (c.topFraction !== undefined)
    chosen = chosen.slice(0, Math.ceil(ranked.length * c.topFraction));
  if (c.topK !== undefined) chosen = chosen.slice(0, c.topK);
  return { ranked, chosen, tooFew: all.length - ranked.length };
}

/** The largest U scores in [0,1] can have (half at 0, half at 1). */
export const MAX_DISPERSION = 0.25;

export interface Histogram {
  binWidth: number;
  /** counts[i] covers [i·w, (i+1)·w); the last bin includes MAX_DISPERSION. */
  counts: number[];
}

/** The dispersions in `bins` equal bins over [0, MAX_DISPERSION], for the report's histogram. */
export function dispersionHistogram(values: readonly number[], bins = 20): Histogram {
  const w = MAX_DISPERSION / bins;
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) counts[Math.min(bins - 1, Math.max(0, Math.floor(v / w)))]!++;
  return { binWidth: w, counts };
}

/** The histogram as text bars, one line a bin. */
export function formatHistogram(h: Histogram, width = 40): string {
  const max = Math.max(1, ...h.counts);
  return h.counts
    .map((n, i) => {
      const lo = (i * h.binWidth).toFixed(4);
      const hi = ((i + 1) * h.binWidth).toFixed(4);
      return `${lo}–${hi} ${'█'.repeat(Math.round((n / max) * width)).padEnd(width)} ${n}`;
    })
    .join('\n');
}
