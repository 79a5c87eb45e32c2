// Several judges against the same human study in one table: each judge's agreement with the
// people (pairwise choices or scores), judge-vs-judge agreement, the majority vote as an extra
// judge, position bias (does a judge favour the first picture?), and the human ceiling from
// repeated pairs. Ties are counted apart everywhere and the tie policy is explicit, so an
// agreement computed from a handful of decided votes is flagged instead of headlined.
import { type AbsoluteAlignment, alignAbsolute } from './align.ts';
import { binomialTest, krippendorffAlpha } from './stats/agreement.ts';
import type { HumanJudgements, PairwiseVote, Predictions } from './stats/align-input.ts';
import {
  type BootstrapOptions,
  bootstrapCI,
  bootstrapOptions,
  type Interval,
} from './stats/bootstrap.ts';
import type { LineIssue } from './stats/jsonl.ts';

/** How a judge's tie on a vote people decided counts: dropped, half credit, or a miss. */
export type TiePolicy = 'half' | 'exclude' | 'loss';
export const TIE_POLICIES: readonly TiePolicy[] = ['exclude', 'half', 'loss'];
/** Below this many votes decided by both sides an agreement is flagged as low support. */
export const DEFAULT_MIN_DECIDED = 30;

export interface JudgeInput {
  name: string;
  predictions: Predictions;
}

export interface AlignTableOptions extends BootstrapOptions {
  reward?: string;
  /** Predicted scores closer than this are a predicted tie; default 0. */
  tieEpsilon?: number;
  ties?: TiePolicy;
  minDecided?: number;
}

export interface PositionBias {
  /** The judge's (or people's) own votes, as they were shown: a = first/left. */
  votes: number;
  first: number;
  second: number;
  ties: number;
  /** first / (first + second); null without a decided vote. */
  share_first: number | null;
  /** Two-sided exact binomial test of share_first against 50%. */
  p_value: number | null;
}

export interface JudgePairwise {
  /** Human votes on pairs this judge gave a verdict for. */
  votes: number;
  human_decided: number;
  human_ties: number;
  agree: number;
  disagree: number;
  /** Votes people decided that the judge tied. */
  judge_ties: number;
  /** Human ties the judge tied too. */
  both_tie: number;
  /** Votes in the agreement's denominator under the tie policy. */
  counted: number;
  /** Agreement with people under the tie policy; CI resamples groups. */
  agreement: Interval;
  /** True when `counted` is below the minimum or under half of the human-decided votes. */
  low_support: boolean;
  position: PositionBias | null;
}

export interface JudgeRow {
  name: string;
  source: 'choices' | 'scores' | 'majority';
  absolute: AbsoluteAlignment | null;
  pairwise: JudgePairwise | null;
  /** Human votes (and ratings) whose items this judge has no verdict for. */
  unmatched: number;
}

export interface JudgePair {
  a: string;
  b: string;
  /** Human-voted pairs both judges gave a verdict for. */
  pairs: number;
  both_decided: number;
  agree: number;
  /** agree / both_decided. */
  agreement: number | null;
  /** Same verdict (ties included) / pairs. */
  exact: number | null;
}

export interface RepeatAgreement {
  /** Couples of votes on the same pair (each unordered couple once). */
  couples: number;
  both_decided: number;
  agree: number;
  /** agree / both_decided: how often people repeat their own choice. */
  agreement: number | null;
  /** Same verdict, ties included / couples. */
  exact: number | null;
}

export interface HumanSide {
  votes: number;
  decided: number;
  ties: number;
  raters: number;
  position: PositionBias | null;
  /** Repeated votes by the same rater (or by anyone, when the file names no raters). */
  self_agreement: RepeatAgreement | null;
  /** Votes on the same pair by different raters. */
  inter_rater: RepeatAgreement | null;
  ratings: number;
  /** Krippendorff's α (interval) over raters of the absolute ratings; null with one rater. */
  ratings_alpha: number | null;
}

export interface AlignTable {
  reward: string;
  ties: TiePolicy;
  tie_epsilon: number;
  min_decided: number;
  bootstrap: { resamples: number; seed: number; level: number };
  human: HumanSide;
  judges: JudgeRow[];
  judge_vs_judge: JudgePair[];
  issues: LineIssue[];
}

/** A vote's verdict with its pair in canonical order: lo = the id that sorts first. */
type Verdict = 'lo' | 'hi' | 'tie';

const pairKey = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

function canonical(v: PairwiseVote): { key: string; verdict: Verdict } {
  const key = pairKey(v.a, v.b);
  if (v.winner === 'tie') return { key, verdict: 'tie' };
  const winnerId = v.winner === 'a' ? v.a : v.b;
  const loserId = v.winner === 'a' ? v.b : v.a;
  return { key, verdict: winnerId < loserId ? 'lo' : 'hi' };
}

/** A judge's verdict per pair: the majority of its votes there (a split is a tie). */
function verdictsFromChoices(choices: readonly PairwiseVote[]): Map<string, Verdict> {
  const tally = new Map<string, { lo: number; hi: number }>();
  for (const v of choices) {
    const { key, verdict } = canonical(v);
    const t = tally.get(key) ?? { lo: 0, hi: 0 };
    if (verdict !== 'tie') t[verdict]++;
    tally.set(key, t);
  }
  const out = new Map<string, Verdict>();
  for (const [key, t] of tally) out.set(key, t.lo > t.hi ? 'lo' : t.hi > t.lo ? 'hi' : 'tie');
  return out;
}

/** A score judge's verdict on each human-voted pair whose two items it scored. */
function verdictsFromScores(
  scores: ReadonlyMap<string, number>,
  votes: readonly PairwiseVote[],
  eps: number,
): Map<string, Verdict> {
  const out = new Map<string, Verdict>();
  for (const v of votes) {
    const a = scores.get(v.a);
    const b = scores.get(v.b);
    if (a === undefined || b === undefined) continue;
    const [lo, hi] = v.a < v.b ? [a, b] : [b, a];
    out.set(pairKey(v.a, v.b), Math.abs(lo - hi) <= eps ? 'tie' : lo > hi ? 'lo' : 'hi');
  }
  return out;
}

export function positionBias(votes: readonly PairwiseVote[]): PositionBias | null {
  if (votes.length === 0) return null;
  const first = votes.filter((v) => v.winner === 'a').length;
  const second = votes.filter((v) => v.winner === 'b').length;
  const decided = first + second;
  return {
    votes: votes.length,
    first,
    second,
    ties: votes.length - decided,
    share_first: decided > 0 ? first / decided : null,
    p_value: binomialTest(first, decided),
  };
}

type Outcome = 'agree' | 'disagree' | 'judge_tie' | 'both_tie' | 'human_tie';
interface Scored {
  group: string;
  outcome: Outcome;
}

function outcomeOf(human: Verdict, judge: Verdict): Outcome {
  if (human === 'tie') return judge === 'tie' ? 'both_tie' : 'human_tie';
  if (judge === 'tie') return 'judge_tie';
  return human === judge ? 'agree' : 'disagree';
}

/** Agreement of a set of scored votes under a tie policy; null with nothing counted. */
export function tieAgreement(
  counts: { agree: number; disagree: number; judge_ties: number },
  ties: TiePolicy,
): { value: number | null; counted: number } {
  const { agree, disagree, judge_ties } = counts;
  const counted = ties === 'exclude' ? agree + disagree : agree + disagree + judge_ties;
  const credit = agree + (ties === 'half' ? 0.5 * judge_ties : 0);
  return { value: counted > 0 ? credit / counted : null, counted };
}

function tally(s: readonly Scored[]) {
  const c = { agree: 0, disagree: 0, judge_ties: 0, both_tie: 0, human_tie: 0 };
  for (const v of s) {
    if (v.outcome === 'agree') c.agree++;
    else if (v.outcome === 'disagree') c.disagree++;
    else if (v.outcome === 'judge_tie') c.judge_ties++;
    else if (v.outcome === 'both_tie') c.both_tie++;
    else c.human_tie++;
  }
  return c;
}

function groupsOf<T extends { group: string }>(items: readonly T[]): T[][] {
  const by = new Map<string, T[]>();
  for (const it of items) by.set(it.group, [...(by.get(it.group) ?? []), it]);
  return [...by.values()];
}

function judgePairwise(
  verdicts: ReadonlyMap<string, Verdict>,
  votes: readonly PairwiseVote[],
  own: readonly PairwiseVote[] | null,
  opts: Required<BootstrapOptions> & { ties: TiePolicy; minDecided: number },
): JudgePairwise {
  const scored: Scored[] = [];
  votes.forEach((v, i) => {
    const j = verdicts.get(pairKey(v.a, v.b));
    if (j === undefined) return;
    scored.push({
      group: v.group ?? `\u0000vote${i}`,
      outcome: outcomeOf(canonical(v).verdict, j),
    });
  });
  const c = tally(scored);
  const { counted } = tieAgreement(c, opts.ties);
  const humanDecided = c.agree + c.disagree + c.judge_ties;
  return {
    votes: scored.length,
    human_decided: humanDecided,
    human_ties: c.both_tie + c.human_tie,
    agree: c.agree,
    disagree: c.disagree,
    judge_ties: c.judge_ties,
    both_tie: c.both_tie,
    counted,
    agreement: bootstrapCI(
      groupsOf(scored),
      (s) => tieAgreement(tally(s.flat()), opts.ties).value,
      opts,
    ),
    low_support: counted < opts.minDecided || counted < humanDecided / 2,
    position: own ? positionBias(own) : null,
  };
}

function repeatAgreement(couples: readonly [Verdict, Verdict][]): RepeatAgreement | null {
  if (couples.length === 0) return null;
  const decided = couples.filter(([x, y]) => x !== 'tie' && y !== 'tie');
  const agree = decided.filter(([x, y]) => x === y).length;
  return {
    couples: couples.length,
    both_decided: decided.length,
    agree,
    agreement: decided.length > 0 ? agree / decided.length : null,
    exact: couples.filter(([x, y]) => x === y).length / couples.length,
  };
}

function humanSide(human: HumanJudgements): HumanSide {
  const votes = human.pairwise;
  const byKey = new Map<string, { verdict: Verdict; rater: string | null }[]>();
  for (const v of votes) {
    const { key, verdict } = canonical(v);
    byKey.set(key, [...(byKey.get(key) ?? []), { verdict, rater: v.rater }]);
  }
  const named = votes.some((v) => v.rater !== null);
  const self: [Verdict, Verdict][] = [];
  const inter: [Verdict, Verdict][] = [];
  for (const list of byKey.values()) {
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++) {
        const couple: [Verdict, Verdict] = [list[i]!.verdict, list[j]!.verdict];
        if (!named || list[i]!.rater === list[j]!.rater) self.push(couple);
        else inter.push(couple);
      }
  }
  const raters = new Set(
    [...votes, ...human.absolute].map((v) => v.rater).filter((r) => r !== null),
  );
  const byItem = new Map<string, number[]>();
  for (const r of human.absolute) byItem.set(r.id, [...(byItem.get(r.id) ?? []), r.score]);
  const decided = votes.filter((v) => v.winner !== 'tie').length;
  return {
    votes: votes.length,
    decided,
    ties: votes.length - decided,
    raters: raters.size,
    position: positionBias(votes),
    self_agreement: repeatAgreement(self),
    inter_rater: repeatAgreement(inter),
    ratings: human.absolute.length,
    ratings_alpha: krippendorffAlpha([...byItem.values()], 'interval').alpha,
  };
}

function majorityVerdicts(all: readonly ReadonlyMap<string, Verdict>[]): Map<string, Verdict> {
  const keys = new Set(all.flatMap((m) => [...m.keys()]));
  const out = new Map<string, Verdict>();
  for (const key of keys) {
    let lo = 0;
    let hi = 0;
    for (const m of all) {
      const v = m.get(key);
      if (v === 'lo') lo++;
      else if (v === 'hi') hi++;
    }
    out.set(key, lo > hi ? 'lo' : hi > lo ? 'hi' : 'tie');
  }
  return out;
}

function judgePair(
  a: string,
  b: string,
  va: ReadonlyMap<string, Verdict>,
  vb: ReadonlyMap<string, Verdict>,
  keys: ReadonlySet<string>,
): JudgePair {
  let pairs = 0;
  let same = 0;
  let bothDecided = 0;
  let agree = 0;
  for (const key of keys) {
    const x = va.get(key);
    const y = vb.get(key);
    if (x === undefined || y === undefined) continue;
    pairs++;
    if (x === y) same++;
    if (x !== 'tie' && y !== 'tie') {
      bothDecided++;
      if (x === y) agree++;
    }
  }
  return {
    a,
    b,
    pairs,
    both_decided: bothDecided,
    agree,
    agreement: bothDecided > 0 ? agree / bothDecided : null,
    exact: pairs > 0 ? same / pairs : null,
  };
}

export const MAJORITY = 'majority';

/** The whole table: every judge against people, each other and the majority of them. */
export function alignJudges(
  judges: readonly JudgeInput[],
  human: HumanJudgements,
  opts: AlignTableOptions = {},
): AlignTable {
  const boot = bootstrapOptions(opts);
  const ties = opts.ties ?? 'exclude';
  const eps = (opts.tieEpsilon ?? 0) + 1e-12;
  const minDecided = opts.minDecided ?? DEFAULT_MIN_DECIDED;
  const popts = { ...boot, ties, minDecided };
  const votes = human.pairwise;
  const humanKeys = new Set(votes.map((v) => pairKey(v.a, v.b)));
  // Scores by bare id and by `run/id` (how the studio names items of several runs).
  const scoreMaps = judges.map((j) => new Map([...j.predictions.scores, ...j.predictions.byRun]));
  const verdicts = judges.map((j, i) =>
    j.predictions.choices.length > 0
      ? verdictsFromChoices(j.predictions.choices)
      : verdictsFromScores(scoreMaps[i]!, votes, eps),
  );
  const rows: JudgeRow[] = judges.map((j, i) => {
    const usesChoices = j.predictions.choices.length > 0;
    const v = verdicts[i]!;
    const scored = scoreMaps[i]!;
    const unmatchedVotes = votes.filter((h) => !v.has(pairKey(h.a, h.b))).length;
    const unmatchedRatings = human.absolute.filter((r) => !scored.has(r.id)).length;
    return {
      name: j.name,
      source: usesChoices ? 'choices' : 'scores',
      absolute:
        human.absolute.length > 0 && scored.size > 0
          ? alignAbsolute(scored, human.absolute, boot)
          : null,
      pairwise:
        votes.length > 0
          ? judgePairwise(v, votes, usesChoices ? j.predictions.choices : null, popts)
          : null,
      unmatched: unmatchedVotes + (scored.size > 0 ? unmatchedRatings : 0),
    };
  });
  const pairs: JudgePair[] = [];
  for (let i = 0; i < judges.length; i++)
    for (let k = i + 1; k < judges.length; k++)
      pairs.push(
        judgePair(judges[i]!.name, judges[k]!.name, verdicts[i]!, verdicts[k]!, humanKeys),
      );
  if (judges.length >= 2 && votes.length > 0) {
    const m = majorityVerdicts(verdicts);
    rows.push({
      name: MAJORITY,
      source: 'majority',
      absolute: null,
      pairwise: judgePairwise(m, votes, null, popts),
      unmatched: votes.filter((h) => !m.has(pairKey(h.a, h.b))).length,
    });
  }
  return {
    reward: opts.reward ?? 'universal',
    ties,
    tie_epsilon: opts.tieEpsilon ?? 0,
    min_decided: minDecided,
    bootstrap: boot,
    human: humanSide(human),
    judges: rows,
    judge_vs_judge: pairs,
    issues: [...judges.flatMap((j) => j.predictions.issues), ...human.issues],
  };
}
