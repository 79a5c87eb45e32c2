// `probe`'s comparison of judging modes (issue 37): the same pictures judged absolutely with
// greedy scoring and with expected scoring (repeatability: the mean per-picture sample std of
// the reward over repeats, and the share of answers read as expected), and pairwise — two
// pictures of one prompt shown in both orders — for position bias: the share of comparisons
// the picture shown first wins (0.5 for a judge without a liking for either position; nine
// LLM judges measured on real pairs range 27–60 %) and the share of pairs whose two orders
// name the same picture. Group judging — a prompt's pictures shown in one call, forward and
// reversed — fills the same two columns: the share of end pictures scored higher when shown
// first than when shown last (0.5 without position bias), and the share of picture pairs the
// two orders rank the same way. Faults are counted apart, never a measurement. Pure figures
// here; the calls are made by run.ts through the scorer and the judges it is given.
import type { ScoreRecord } from '../core/record.ts';
import { isGraderFaultRecord } from '../core/status.ts';
import type { Asked } from '../judge/cached-ask.ts';
import type { GroupAnswer } from '../judge/group.ts';
import type { PairwiseAnswer } from '../judge/pairwise.ts';
import { sampleStd } from '../reward/grpo.ts';

export type ProbedJudgingMode = 'absolute-greedy' | 'absolute-expected' | 'pairwise' | 'group';

/** One judging mode's figures in probe.json (`judging_modes`). */
export interface JudgingModeFigures {
  mode: ProbedJudgingMode;
  /** Pictures (absolute) or pairs (pairwise) measured, faults left out. */
  n: number;
  /** Scorings or comparisons that faulted (no usable logprobs under expected, judge errors). */
  faults: number;
  /** Absolute: mean per-picture sample std of the reward over the repeats. */
  repeat_std: number | null;
  /** Absolute: share of measured answers read as Σ p·v (`scoring: expected`). */
  expected_share: number | null;
  /**
   * Pairwise: share of answered comparisons won by the picture shown first. Group: share of
   * end pictures scored higher shown first than shown last (equal counts one half).
   */
  first_wins: number | null;
  /**
   * Pairwise: share of pairs whose two orders name the same picture (a tie in both counts).
   * Group: share of picture pairs the forward and the reversed call rank the same way.
   */
  order_agreement: number | null;
}

const mean = (v: number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : null);

/** Figures of one absolute mode from each picture's repeated records. */
export function absoluteFigures(
  mode: 'absolute-greedy' | 'absolute-expected',
  runs: readonly (readonly ScoreRecord[])[],
): JudgingModeFigures {
  let faults = 0;
  let answers = 0;
  let expected = 0;
  const spreads: number[] = [];
  for (const picture of runs) {
    const ok = picture.filter((r) => {
      if (isGraderFaultRecord(r)) {
        faults++;
        return false;
      }
      return r.status === 'ok';
    });
    for (const r of ok) {
      answers++;
      if (r.scoring === 'expected') expected++;
    }
    if (ok.length >= 2) spreads.push(sampleStd(ok.map((r) => r.reward)));
  }
  return {
    mode,
    n: spreads.length,
    faults,
    repeat_std: mean(spreads),
    expected_share: answers ? expected / answers : null,
    first_wins: null,
    order_agreement: null,
  };
}

/** The two answers of one pair: `ab` shows picture a first, `ba` shows b first. */
export interface PairAnswers {
  ab: Asked<PairwiseAnswer>;
  ba: Asked<PairwiseAnswer>;
}

/** Which picture an answer names: a, b or neither (tie), from the order it was shown in. */
const named = (w: PairwiseAnswer['winner'], aFirst: boolean) =>
  w === 'tie' ? 'tie' : (w === 'first') === aFirst ? 'a' : 'b';

/** Pairwise figures: first-picture wins over answered comparisons, order agreement per pair. */
export function pairwiseFigures(pairs: readonly PairAnswers[]): JudgingModeFigures {
  let faults = 0;
  let answered = 0;
  let first = 0;
  let both = 0;
  let agree = 0;
  for (const { ab, ba } of pairs) {
    for (const x of [ab, ba]) {
      if (!x.ok) {
        faults++;
        continue;
      }
      answered++;
      if (x.value.winner === 'first') first++;
    }
    if (ab.ok && ba.ok) {
      both++;
      if (named(ab.value.winner, true) === named(ba.value.winner, false)) agree++;
    }
  }
  return {
    mode: 'pairwise',
    n: both,
    faults,
    repeat_std: null,
    expected_share: null,
    first_wins: answered ? first / answered : null,
    order_agreement: both ? agree / both : null,
  };
}

/** Consecutive pictures of each prompt, as pairs (a group of k gives k − 1 pairs). */
export function pairsWithinPrompts<T extends { prompt_id: string }>(
  pictures: readonly T[],
  max: number,
): [T, T][] {
  const byPrompt = new Map<string, T[]>();
  for (const p of pictures) {
    const list = byPrompt.get(p.prompt_id) ?? [];
    list.push(p);
    byPrompt.set(p.prompt_id, list);
  }
  const out: [T, T][] = [];
  for (const list of byPrompt.values())
    for (let i = 0; i + 1 < list.length && out.length < max; i++)
      out.push([list[i]!, list[i + 1]!]);
  return out;
}

/** One group of pictures shown forward and reversed; `score` reads a picture's answer. */
export interface GroupOrderAnswers {
  forward: Asked<GroupAnswer>;
  reversed: Asked<GroupAnswer>;
  /** A picture's score in one answer (its weighted items), from the answer's entry. */
  score: (entry: GroupAnswer['pictures'][number]) => number;
}

/** Group figures: first-versus-last of the end pictures, rank agreement of the two orders. */
export function groupFigures(groups: readonly GroupOrderAnswers[]): JudgingModeFigures {
  let faults = 0;
  let ends = 0;
  let firstWins = 0;
  let pairs = 0;
  let agree = 0;
  let n = 0;
  for (const g of groups) {
    for (const x of [g.forward, g.reversed]) if (!x.ok) faults++;
    if (!g.forward.ok || !g.reversed.ok) continue;
    const fwd = g.forward.value.pictures.map(g.score);
    // The reversed call shows picture i at position k − 1 − i: read it back in forward order.
    const rev = [...g.reversed.value.pictures].reverse().map(g.score);
    const k = fwd.length;
    if (k < 2) continue;
    n++;
    // Picture 0 is first forward, last reversed; picture k − 1 the other way round.
    for (const [asFirst, asLast] of [
      [fwd[0]!, rev[0]!],
      [rev[k - 1]!, fwd[k - 1]!],
    ] as const) {
      ends++;
      firstWins += asFirst > asLast ? 1 : asFirst === asLast ? 0.5 : 0;
    }
    for (let i = 0; i < k; i++)
      for (let j = i + 1; j < k; j++) {
        pairs++;
        if (Math.sign(fwd[i]! - fwd[j]!) === Math.sign(rev[i]! - rev[j]!)) agree++;
      }
  }
  return {
    mode: 'group',
    n,
    faults,
    repeat_std: null,
    expected_share: null,
    first_wins: ends ? firstWins / ends : null,
    order_agreement: pairs ? agree / pairs : null,
  };
}

/** Up to `max` groups of consecutive pictures of one prompt, each of 2 to `size` pictures. */
export function groupsWithinPrompts<T extends { prompt_id: string }>(
  pictures: readonly T[],
  size: number,
  max: number,
): T[][] {
  const byPrompt = new Map<string, T[]>();
  for (const p of pictures) {
    const list = byPrompt.get(p.prompt_id) ?? [];
    list.push(p);
    byPrompt.set(p.prompt_id, list);
  }
  const out: T[][] = [];
  for (const list of byPrompt.values())
    for (let i = 0; i + 1 < list.length && out.length < max; i += size)
      if (list.length - i >= 2) out.push(list.slice(i, i + size));
  return out;
}
