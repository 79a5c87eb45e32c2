// Agreement between a judge's scores and people's: the paper's human-alignment study.
// Absolute ratings → Spearman ρ, Pearson r, Kendall τ-b over all items (bootstrap over items)
// and Goodman–Kruskal γ inside each group (bootstrap over groups). Pairwise votes → how often
// the predicted preference matches the human winner, with ties counted apart.
import {
  type AbsoluteRating,
  type HumanJudgements,
  type PairwiseVote,
  type Predictions,
  parseHuman,
  parsePredictions,
} from './stats/align-input.ts';
import {
  type BootstrapOptions,
  bootstrapCI,
  bootstrapOptions,
  type Interval,
} from './stats/bootstrap.ts';
import { pearson, spearman } from './stats/correlation.ts';
import { type GroupScores, groupedGamma } from './stats/gamma.ts';
import type { LineIssue } from './stats/jsonl.ts';
import { kendallTauB } from './stats/kendall.ts';
import { fmt, fmtInterval, formatTable } from './stats/text-table.ts';

/** Which reward to read, when two predictions tie, and the bootstrap's settings. */
export interface AlignOptions extends BootstrapOptions {
  /** Reward picked from eval records (default "universal"); filters score lines when given. */
  reward?: string;
  /** Predicted scores closer than this are a predicted tie (pairwise votes); default 0. */
  tieEpsilon?: number;
}

export interface AbsoluteAlignment {
  /** Human-rated items that have a prediction. */
  items: number;
  /** Groups among the matched items (ungrouped items are groups of one). */
  groups: number;
  spearman: Interval;
  pearson: Interval;
  kendall_tau_b: Interval;
  /** Pooled γ = Σ(C−D)/Σ(C+D) over groups; CI resamples groups. */
  gamma: Interval;
  /** Mean of per-group γ over groups with an untied pair; CI resamples groups. */
  gamma_mean_per_group: Interval;
  gamma_pairs: { concordant: number; discordant: number; tied: number; groups_with_pairs: number };
}

export interface PairwiseAlignment {
  /** Votes whose two items both have a prediction. */
  votes: number;
  human_ties: number;
  /** Votes with a human winner. */
  decided: number;
  /** Among decided votes: prediction prefers the human winner / the other / neither. */
  agree: number;
  disagree: number;
  predicted_ties: number;
  /** Among human ties: the prediction ties too. */
  both_tie: number;
  /** agree / (agree + disagree): decided by both sides (headline). CI resamples groups. */
  agreement: Interval;
  /** (agree + ½·predicted_ties) / decided: a predicted tie earns half credit. */
  agreement_ties_half: Interval;
  /** (agree + both_tie) / votes: three-way exact match, ties included. */
  exact: Interval;
}

/**
 * How well a judge agrees with people: correlations against absolute ratings and agreement
 * with pairwise votes, each with a bootstrap interval, and which ids did not match.
 */
export interface AlignReport {
  reward: string;
  bootstrap: { resamples: number; seed: number; level: number };
  predictions: number;
  absolute: AbsoluteAlignment | null;
  pairwise: PairwiseAlignment | null;
  /** Human ids (or vote items) with no prediction, in file order. */
  unmatched_human: string[];
  /** Predicted ids no human judgement mentions. */
  unmatched_pred: number;
  issues: LineIssue[];
}

interface Matched {
  group: string;
  pred: number;
  human: number;
}

function groupsOf<T extends { group: string }>(items: readonly T[]): T[][] {
  const by = new Map<string, T[]>();
  for (const it of items) {
    const list = by.get(it.group);
    if (list) list.push(it);
    else by.set(it.group, [it]);
  }
  return [...by.values()];
}

const xs = (s: readonly Matched[]) => s.map((m) => m.pred);
const ys = (s: readonly Matched[]) => s.map((m) => m.human);

function gammaInput(groups: readonly (readonly Matched[])[]): GroupScores[] {
  return groups.map((g) => ({ x: xs(g), y: ys(g) }));
}

/** One rating per item: several raters' scores of an item are averaged, in first-seen order. */
export function meanRatings(ratings: readonly AbsoluteRating[]): AbsoluteRating[] {
  const by = new Map<string, { first: AbsoluteRating; sum: number; n: number }>();
  for (const r of ratings) {
    const e = by.get(r.id);
    if (e) {
      e.sum += r.score;
      e.n++;
    } else by.set(r.id, { first: r, sum: r.score, n: 1 });
  }
  return [...by.values()].map((e) => ({ ...e.first, score: e.sum / e.n, rater: null }));
}

export function alignAbsolute(
  pred: ReadonlyMap<string, number>,
  ratings: readonly AbsoluteRating[],
  opts: BootstrapOptions = {},
): AbsoluteAlignment {
  const boot = bootstrapOptions(opts);
  const matched: Matched[] = [];
  for (const r of meanRatings(ratings)) {
    const p = pred.get(r.id);
    // A unique key keeps an ungrouped item in a group of its own.
    if (p !== undefined)
      matched.push({ group: r.group ?? `\u0000${r.id}`, pred: p, human: r.score });
  }
  const groups = groupsOf(matched);
  const gamma = groupedGamma(gammaInput(groups));
  return {
    items: matched.length,
    groups: groups.length,
    spearman: bootstrapCI(matched, (s) => spearman(xs(s), ys(s)), boot),
    pearson: bootstrapCI(matched, (s) => pearson(xs(s), ys(s)), boot),
    kendall_tau_b: bootstrapCI(matched, (s) => kendallTauB(xs(s), ys(s)), boot),
    gamma: bootstrapCI(groups, (s) => groupedGamma(gammaInput(s)).pooled, boot),
    gamma_mean_per_group: bootstrapCI(
      groups,
      (s) => groupedGamma(gammaInput(s)).meanPerGroup,
      boot,
    ),
    gamma_pairs: {
      concordant: gamma.concordant,
      discordant: gamma.discordant,
      tied: gamma.tied,
      groups_with_pairs: gamma.groupsWithPairs,
    },
  };
}

type Outcome = 'agree' | 'disagree' | 'pred_tie' | 'both_tie' | 'human_tie';

interface ScoredVote {
  group: string;
  outcome: Outcome;
}

function count(s: readonly ScoredVote[], ...outcomes: Outcome[]): number {
  return s.filter((v) => outcomes.includes(v.outcome)).length;
}

const ratio = (num: number, den: number) => (den > 0 ? num / den : null);

export function alignPairwise(
  pred: ReadonlyMap<string, number>,
  votes: readonly PairwiseVote[],
  opts: BootstrapOptions & { tieEpsilon?: number } = {},
): PairwiseAlignment {
  const boot = bootstrapOptions(opts);
  // A hair of slack so 0.7 vs 0.70000000000000001 from different sums still ties.
  const eps = (opts.tieEpsilon ?? 0) + 1e-12;
  const scored: ScoredVote[] = [];
  votes.forEach((v, i) => {
    const a = pred.get(v.a);
    const b = pred.get(v.b);
    if (a === undefined || b === undefined) return;
    const predicted = Math.abs(a - b) <= eps ? 'tie' : a > b ? 'a' : 'b';
    let outcome: Outcome;
    if (v.winner === 'tie') outcome = predicted === 'tie' ? 'both_tie' : 'human_tie';
    else if (predicted === 'tie') outcome = 'pred_tie';
    else outcome = predicted === v.winner ? 'agree' : 'disagree';
    scored.push({ group: v.group ?? `\u0000vote${i}`, outcome });
  });
  const groups = groupsOf(scored);
  const agreement = (s: readonly ScoredVote[]) =>
    ratio(count(s, 'agree'), count(s, 'agree', 'disagree'));
  const half = (s: readonly ScoredVote[]) =>
    ratio(
      count(s, 'agree') + 0.5 * count(s, 'pred_tie'),
      count(s, 'agree', 'disagree', 'pred_tie'),
    );
  const exact = (s: readonly ScoredVote[]) => ratio(count(s, 'agree', 'both_tie'), s.length);
  return {
    votes: scored.length,
    human_ties: count(scored, 'both_tie', 'human_tie'),
    decided: count(scored, 'agree', 'disagree', 'pred_tie'),
    agree: count(scored, 'agree'),
    disagree: count(scored, 'disagree'),
    predicted_ties: count(scored, 'pred_tie'),
    both_tie: count(scored, 'both_tie'),
    agreement: bootstrapCI(groups, (s) => agreement(s.flat()), boot),
    agreement_ties_half: bootstrapCI(groups, (s) => half(s.flat()), boot),
    exact: bootstrapCI(groups, (s) => exact(s.flat()), boot),
  };
}

/** Joins parsed predictions and human judgements into the full report. */
export function alignParsed(
  pred: Predictions,
  human: HumanJudgements,
  opts: AlignOptions = {},
): AlignReport {
  const boot = bootstrapOptions(opts);
  const mentioned = new Set<string>();
  const unmatched: string[] = [];
  const note = (id: string) => {
    if (!mentioned.has(id) && !pred.scores.has(id)) unmatched.push(id);
    mentioned.add(id);
  };
  for (const r of human.absolute) note(r.id);
  for (const v of human.pairwise) {
    note(v.a);
    note(v.b);
  }
  let unmatchedPred = 0;
  for (const id of pred.scores.keys()) if (!mentioned.has(id)) unmatchedPred++;
  return {
    reward: opts.reward ?? 'universal',
    bootstrap: boot,
    predictions: pred.scores.size,
    absolute: human.absolute.length > 0 ? alignAbsolute(pred.scores, human.absolute, boot) : null,
    pairwise:
      human.pairwise.length > 0
        ? alignPairwise(pred.scores, human.pairwise, { ...boot, tieEpsilon: opts.tieEpsilon })
        : null,
    unmatched_human: unmatched,
    unmatched_pred: unmatchedPred,
    issues: [...pred.issues, ...human.issues],
  };
}

/**
 * Parses both JSONL texts and aligns them: the judge's predictions (eval results or score
 * lines, `opts.reward` picks which) against human ratings and pairwise votes. Lines that
 * cannot be read are listed in the report's `issues`, never thrown.
 * @example
 * ```ts
 * const pred = readFileSync('runs/ruler/results.jsonl', 'utf8');
 * const report = align(pred, readFileSync('human.jsonl', 'utf8'), { reward: 'ruler' });
 * console.log(formatAlignReport(report));
 * ```
 */
export function align(predText: string, humanText: string, opts: AlignOptions = {}): AlignReport {
  return alignParsed(
    parsePredictions(predText, { reward: opts.reward }),
    parseHuman(humanText),
    opts,
  );
}

/** The report as text tables for a terminal. */
export function formatAlignReport(report: AlignReport): string {
  const out: string[] = [];
  const b = report.bootstrap;
  out.push(
    `predictions: ${report.predictions} (reward ${report.reward}); ` +
      `${Math.round(b.level * 100)}% percentile bootstrap, ${b.resamples} resamples, seed ${b.seed}`,
  );
  const a = report.absolute;
  if (a) {
    out.push('', `absolute ratings: ${a.items} items in ${a.groups} groups`);
    const row = (name: string, i: Interval, unit: string) => [
      name,
      fmt(i.estimate),
      i.low === null ? '—' : `[${fmt(i.low)}, ${fmt(i.high)}]`,
      `${i.valid}/${i.resamples}`,
      unit,
    ];
    out.push(
      formatTable(
        ['statistic', 'value', '95% CI', 'valid', 'resampled'],
        [
          row('Spearman ρ', a.spearman, 'items'),
          row('Pearson r', a.pearson, 'items'),
          row('Kendall τ-b', a.kendall_tau_b, 'items'),
          row('γ within groups (pooled)', a.gamma, 'groups'),
          row('γ within groups (mean)', a.gamma_mean_per_group, 'groups'),
        ],
        ['left', 'right', 'right', 'right', 'left'],
      ),
    );
    const g = a.gamma_pairs;
    out.push(
      `γ pairs: ${g.concordant} concordant, ${g.discordant} discordant, ${g.tied} tied (excluded); ` +
        `${g.groups_with_pairs} groups with an untied pair`,
    );
  }
  const p = report.pairwise;
  if (p) {
    out.push(
      '',
      `pairwise votes: ${p.votes} (${p.decided} with a human winner, ${p.human_ties} human ties)`,
    );
    out.push(
      formatTable(
        ['measure', 'value'],
        [
          ['agreement (both sides decided)', fmtInterval(p.agreement)],
          ['agreement (predicted tie = ½)', fmtInterval(p.agreement_ties_half)],
          ['exact match incl. ties', fmtInterval(p.exact)],
          ['agree / disagree / predicted tie', `${p.agree} / ${p.disagree} / ${p.predicted_ties}`],
          ['human ties also tied by prediction', `${p.both_tie} of ${p.human_ties}`],
        ],
        ['left', 'left'],
      ),
    );
  }
  if (!a && !p) out.push('', 'no human judgements found');
  if (report.unmatched_human.length > 0) {
    const shown = report.unmatched_human.slice(0, 10).join(', ');
    const more = report.unmatched_human.length > 10 ? ', …' : '';
    out.push(
      '',
      `unmatched human ids (no prediction): ${report.unmatched_human.length}: ${shown}${more}`,
    );
  }
  if (report.unmatched_pred > 0)
    out.push(`predictions with no human judgement: ${report.unmatched_pred}`);
  if (report.issues.length > 0) {
    out.push('', `skipped lines: ${report.issues.length}`);
    for (const i of report.issues.slice(0, 10))
      out.push(`  ${i.file}:${i.line} ${i.code} ${i.message}`);
    if (report.issues.length > 10) out.push('  …');
  }
  return out.join('\n');
}
