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
/**
 * How a choice judge's votes meet people's: `pairs` merges each judge's votes on a pair into
 * one verdict (their majority; a split is a tie) that every human vote on the pair is compared
 * with; `votes` pairs each human vote with one vote of the judge (same vote id, else the k-th
 * human vote on a pair with the judge's k-th vote there), as a study that asked the judge once
 * per human vote counts. Score judges give the same verdict on a pair either way.
 */
export type CountMode = 'pairs' | 'votes';
export const COUNT_MODES: readonly CountMode[] = ['pairs', 'votes'];
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
  /** Default `pairs`. */
  count?: CountMode;
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
  /** Distinct votes that are part of a couple. */
  votes: number;
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

/** Signs that votes of different prompts were put together as one pair. */
export interface PairingCheck {
  /** Human votes whose two pictures belong to different prompts (per the predictions' records). */
  cross_prompt_votes: number;
  /** Item pairs that people voted on under more than one group. */
  human_pairs_in_several_groups: number;
  /** Per choice judge: human votes on a pair the judge voted on under another group. */
  judge_other_group: Record<string, number>;
  /** One sentence per problem found, for the output. */
  warnings: string[];
}

export interface AlignTable {
  reward: string;
  /** How judge votes were counted against people's (see CountMode). */
  count: CountMode;
  ties: TiePolicy;
  tie_epsilon: number;
  min_decided: number;
  bootstrap: { resamples: number; seed: number; level: number };
  human: HumanSide;
  judges: JudgeRow[];
  judge_vs_judge: JudgePair[];
  /** Every choice judge's own votes pooled: the position share over all of them. */
  pooled_position: PositionBias | null;
  pairing: PairingCheck;
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

/** A judge's verdict per human vote (by index); undefined where it has none. */
type VoteVerdicts = (Verdict | undefined)[];

const perPair = (verdicts: ReadonlyMap<string, Verdict>, votes: readonly PairwiseVote[]) =>
  votes.map((v) => verdicts.get(pairKey(v.a, v.b)));

/**
 * `--count votes`: each human vote meets one vote of the judge — the one with the same vote
 * id, else the next unused judge vote on the same pair in file order. A human vote left
 * without one has no verdict (unmatched).
 */
function perVoteFromChoices(
  choices: readonly PairwiseVote[],
  votes: readonly PairwiseVote[],
): VoteVerdicts {
  const out: VoteVerdicts = new Array(votes.length).fill(undefined);
  const byId = new Map<string, PairwiseVote>();
  for (const c of choices) if (c.id !== undefined && !byId.has(c.id)) byId.set(c.id, c);
  const used = new Set<PairwiseVote>();
  votes.forEach((v, i) => {
    const c = v.id === undefined ? undefined : byId.get(v.id);
    if (c && !used.has(c) && pairKey(c.a, c.b) === pairKey(v.a, v.b)) {
      out[i] = canonical(c).verdict;
      used.add(c);
    }
  });
  const queue = new Map<string, PairwiseVote[]>();
  for (const c of choices) {
    if (used.has(c)) continue;
    const key = pairKey(c.a, c.b);
    queue.set(key, [...(queue.get(key) ?? []), c]);
  }
  votes.forEach((v, i) => {
    if (out[i] !== undefined) return;
    const c = queue.get(pairKey(v.a, v.b))?.shift();
    if (c) out[i] = canonical(c).verdict;
  });
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
  verdicts: VoteVerdicts,
  votes: readonly PairwiseVote[],
  own: readonly PairwiseVote[] | null,
  opts: Required<BootstrapOptions> & { ties: TiePolicy; minDecided: number },
): JudgePairwise {
  const scored: Scored[] = [];
  votes.forEach((v, i) => {
    const j = verdicts[i];
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

function repeatAgreement(
  couples: readonly [Verdict, Verdict][],
  votes: number,
): RepeatAgreement | null {
  if (couples.length === 0) return null;
  const decided = couples.filter(([x, y]) => x !== 'tie' && y !== 'tie');
  const agree = decided.filter(([x, y]) => x === y).length;
  return {
    couples: couples.length,
    votes,
    both_decided: decided.length,
    agree,
    agreement: decided.length > 0 ? agree / decided.length : null,
    exact: couples.filter(([x, y]) => x === y).length / couples.length,
  };
}

function humanSide(human: HumanJudgements): HumanSide {
  const votes = human.pairwise;
  const byKey = new Map<string, { verdict: Verdict; rater: string | null; n: number }[]>();
  votes.forEach((v, n) => {
    const { key, verdict } = canonical(v);
    byKey.set(key, [...(byKey.get(key) ?? []), { verdict, rater: v.rater, n }]);
  });
  const named = votes.some((v) => v.rater !== null);
  const self: [Verdict, Verdict][] = [];
  const inter: [Verdict, Verdict][] = [];
  const selfVotes = new Set<number>();
  const interVotes = new Set<number>();
  for (const list of byKey.values()) {
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++) {
        const couple: [Verdict, Verdict] = [list[i]!.verdict, list[j]!.verdict];
        const same = !named || list[i]!.rater === list[j]!.rater;
        (same ? self : inter).push(couple);
        for (const k of [list[i]!.n, list[j]!.n]) (same ? selfVotes : interVotes).add(k);
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
    self_agreement: repeatAgreement(self, selfVotes.size),
    inter_rater: repeatAgreement(inter, interVotes.size),
    ratings: human.absolute.length,
    ratings_alpha: krippendorffAlpha([...byItem.values()], 'interval').alpha,
  };
}

/** Per vote: the winner most judges chose, judges that tied left out; a split is a tie. */
function majorityVerdicts(all: readonly VoteVerdicts[], n: number): VoteVerdicts {
  const out: VoteVerdicts = [];
  for (let i = 0; i < n; i++) {
    let lo = 0;
    let hi = 0;
    let any = false;
    for (const m of all) {
      const v = m[i];
      if (v !== undefined) any = true;
      if (v === 'lo') lo++;
      else if (v === 'hi') hi++;
    }
    out.push(any ? (lo > hi ? 'lo' : hi > lo ? 'hi' : 'tie') : undefined);
  }
  return out;
}

/** Two judges over the same human votes: `at` holds the vote indices compared. */
function judgePair(
  a: string,
  b: string,
  va: VoteVerdicts,
  vb: VoteVerdicts,
  at: readonly number[],
): JudgePair {
  let pairs = 0;
  let same = 0;
  let bothDecided = 0;
  let agree = 0;
  for (const i of at) {
    const x = va[i];
    const y = vb[i];
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

/**
 * Votes of different prompts put together: a vote whose two pictures' records name different
 * prompts, a pair of items people voted on under several groups, or a judge's vote on the
 * pair under another group than the human vote's. Each is a sign of a wrong id or group column.
 */
function pairingCheck(judges: readonly JudgeInput[], votes: readonly PairwiseVote[]): PairingCheck {
  const prompts = new Map<string, string>();
  for (const j of judges)
    for (const [k, v] of j.predictions.prompts ?? []) if (!prompts.has(k)) prompts.set(k, v);
  let cross = 0;
  let example = '';
  for (const v of votes) {
    const pa = prompts.get(v.a);
    const pb = prompts.get(v.b);
    if (pa !== undefined && pb !== undefined && pa !== pb) {
      cross++;
      example ||= `${v.a} (${pa}) vs ${v.b} (${pb})`;
    }
  }
  const groupsOfPair = (list: readonly PairwiseVote[]) => {
    const m = new Map<string, Set<string>>();
    for (const v of list) {
      if (v.group === null) continue;
      const key = pairKey(v.a, v.b);
      m.set(key, (m.get(key) ?? new Set()).add(v.group));
    }
    return m;
  };
  const humanGroups = groupsOfPair(votes);
  const several = [...humanGroups.values()].filter((g) => g.size > 1).length;
  const judgeOther: Record<string, number> = {};
  for (const j of judges) {
    if (j.predictions.choices.length === 0) continue;
    const jg = groupsOfPair(j.predictions.choices);
    const n = votes.filter((v) => {
      const g = jg.get(pairKey(v.a, v.b));
      return v.group !== null && g !== undefined && [...g].some((x) => x !== v.group);
    }).length;
    if (n > 0) judgeOther[j.name] = n;
  }
  const warnings: string[] = [];
  if (cross > 0)
    warnings.push(
      `${cross} of ${votes.length} human votes compare pictures of two different prompts (e.g. ${example}): check the a/b id columns`,
    );
  if (several > 0)
    warnings.push(
      `${several} pairs of items were voted on under more than one group: their votes are merged into one pair across groups — if the group is the prompt, the item ids are not unique across prompts (check --col a/b/group)`,
    );
  for (const [name, n] of Object.entries(judgeOther))
    warnings.push(
      `${name}: ${n} human votes meet this judge's votes on the same pair under another group: judge and people may not have compared the same pictures`,
    );
  return {
    cross_prompt_votes: cross,
    human_pairs_in_several_groups: several,
    judge_other_group: judgeOther,
    warnings,
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
  // Scores by bare id and by `run/id` (how the studio names items of several runs).
  const scoreMaps = judges.map((j) => new Map([...j.predictions.scores, ...j.predictions.byRun]));
  const count = opts.count ?? 'pairs';
  const verdicts: VoteVerdicts[] = judges.map((j, i) =>
    j.predictions.choices.length > 0
      ? count === 'votes'
        ? perVoteFromChoices(j.predictions.choices, votes)
        : perPair(verdictsFromChoices(j.predictions.choices), votes)
      : perPair(verdictsFromScores(scoreMaps[i]!, votes, eps), votes),
  );
  const rows: JudgeRow[] = judges.map((j, i) => {
    const usesChoices = j.predictions.choices.length > 0;
    const v = verdicts[i]!;
    const scored = scoreMaps[i]!;
    const unmatchedVotes = v.filter((x) => x === undefined).length;
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
  // Judge vs judge: once per pair people voted on, or once per human vote with --count votes.
  const seenKeys = new Set<string>();
  const at: number[] = [];
  votes.forEach((v, i) => {
    const key = pairKey(v.a, v.b);
    if (count === 'votes' || !seenKeys.has(key)) at.push(i);
    seenKeys.add(key);
  });
  const pairs: JudgePair[] = [];
  for (let i = 0; i < judges.length; i++)
    for (let k = i + 1; k < judges.length; k++)
      pairs.push(judgePair(judges[i]!.name, judges[k]!.name, verdicts[i]!, verdicts[k]!, at));
  if (judges.length >= 2 && votes.length > 0) {
    const m = majorityVerdicts(verdicts, votes.length);
    rows.push({
      name: MAJORITY,
      source: 'majority',
      absolute: null,
      pairwise: judgePairwise(m, votes, null, popts),
      unmatched: m.filter((x) => x === undefined).length,
    });
  }
  const allChoices = judges.flatMap((j) => j.predictions.choices);
  return {
    reward: opts.reward ?? 'universal',
    count,
    ties,
    tie_epsilon: opts.tieEpsilon ?? 0,
    min_decided: minDecided,
    bootstrap: boot,
    human: humanSide(human),
    judges: rows,
    judge_vs_judge: pairs,
    pooled_position: positionBias(allChoices),
    pairing: pairingCheck(judges, votes),
    issues: [...judges.flatMap((j) => j.predictions.issues), ...human.issues],
  };
}
