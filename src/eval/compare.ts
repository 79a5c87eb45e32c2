// Comparing eval runs the way the paper's tables do: one row per run (rubric score over
// rendered samples and over all samples, render success, tokens, per-axis means, hybrid terms)
// and, for every pair of runs, per-prompt win / tie / loss with the non-tie win rate.
import { isUnjudged } from '../core/status.ts';
import type { Interval } from './stats/bootstrap.ts';
import type { RunDir } from './stats/run-dir.ts';
import { fmt, fmtInterval, formatTable, pct } from './stats/text-table.ts';
import { defaultSetOf, NO_SET, type RewardSummary, type ScoreEstimate } from './summary.ts';
import type { EvalRecord } from './types.ts';

export const DEFAULT_COMPARE_REWARD = 'universal';
/** Per-prompt mean rewards closer than this are a tie (one point on a 0–100 scale). */
export const DEFAULT_TIE_EPSILON = 0.01;

/**
 * Which reward to compare runs on, the tie margin for per-prompt win/tie/loss, and an optional
 * prompt set.
 */
export interface CompareOptions {
  reward?: string;
  tieEpsilon?: number;
  /** Compare only this prompt set (see summary `sets`); default: all, plus one block per set. */
  set?: string;
}

export interface CompareRow {
  run: string;
  dir: string;
  /** Samples carrying the compared reward (0 when the run lacks it). */
  n: number;
  prompts: number;
  /** Samples a judge scored, and samples no grader judged (grader errors, no rubric). */
  judged: number;
  not_judged: number;
  /** True when samples were meant to be judged and none was: the run has no score. */
  unjudged: boolean;
  score_rendered: ScoreEstimate | null;
  score_all: ScoreEstimate | null;
  render_success_rate: number | null;
  mean_tokens: number | null;
  p90_tokens: number | null;
  axes: Record<string, number | null>;
  /** Mean hybrid reward and its terms' means, when the run was scored with "hybrid". */
  hybrid: { reward: number | null; terms: Record<string, number | null> } | null;
  summary_source: RunDir['summary_source'];
}

export interface PairwiseRuns {
  a: string;
  b: string;
  /** Prompts both runs scored. */
  prompts: number;
  /** a's per-prompt mean beat b's by more than the epsilon. */
  wins: number;
  ties: number;
  losses: number;
  /** wins / (wins + losses); null when every shared prompt tied. */
  win_rate: number | null;
  only_a: number;
  only_b: number;
  /** Runs of this pair with nothing judged: their prompts are not compared. */
  unjudged: string[];
}

/**
 * Runs side by side: per run its score and interval, per pair of runs who wins how often, and
 * the same per prompt set.
 */
export interface Comparison {
  reward: string;
  tie_epsilon: number;
  /** The prompt set compared; null for all prompts. */
  set: string | null;
  rows: CompareRow[];
  /** Axis columns, in first-seen order over runs. */
  axes: string[];
  hybrid_terms: string[];
  pairwise: PairwiseRuns[];
  /** When comparing all prompts and the runs span two or more prompt sets: one per set. */
  sets: Record<string, Comparison>;
}

/** Mean reward per prompt (failures count their 0; grader errors left out). */
export function promptMeans(records: readonly EvalRecord[], reward: string): Map<string, number> {
  const acc = new Map<string, { sum: number; n: number }>();
  for (const r of records) {
    const s = r.scores?.[reward];
    if (!s || isUnjudged(s)) continue;
    const a = acc.get(r.prompt_id) ?? { sum: 0, n: 0 };
    a.sum += Number.isFinite(s.reward) ? s.reward : 0;
    a.n++;
    acc.set(r.prompt_id, a);
  }
  return new Map([...acc].map(([k, a]) => [k, a.sum / a.n]));
}

export function pairwiseRuns(
  a: { label: string; means: ReadonlyMap<string, number> },
  b: { label: string; means: ReadonlyMap<string, number> },
  tieEpsilon = DEFAULT_TIE_EPSILON,
): PairwiseRuns {
  let wins = 0;
  let ties = 0;
  let losses = 0;
  let onlyA = 0;
  for (const [prompt, ma] of a.means) {
    const mb = b.means.get(prompt);
    if (mb === undefined) {
      onlyA++;
      continue;
    }
    // The 1e-12 keeps differences that are the epsilon up to floating error ties.
    const d = ma - mb;
    if (d > tieEpsilon + 1e-12) wins++;
    else if (d < -tieEpsilon - 1e-12) losses++;
    else ties++;
  }
  const prompts = wins + ties + losses;
  return {
    a: a.label,
    b: b.label,
    prompts,
    wins,
    ties,
    losses,
    win_rate: wins + losses > 0 ? wins / (wins + losses) : null,
    only_a: onlyA,
    only_b: b.means.size - prompts,
    unjudged: [],
  };
}

/** The run's reward summaries for all prompts, or for one prompt set ({} if it has none). */
function rewardsOf(run: RunDir, set: string | null): Record<string, RewardSummary> {
  if (set === null) return run.summary.rewards;
  return run.summary.sets?.[set]?.rewards ?? {};
}

function row(run: RunDir, reward: string, set: string | null): CompareRow {
  const rewards = rewardsOf(run, set);
  const s: RewardSummary | undefined = rewards[reward];
  const hybrid = rewards.hybrid;
  const judged = s?.judged ?? 0;
  const notJudged = s?.not_judged ?? 0;
  return {
    run: run.label,
    dir: run.dir,
    n: s?.n ?? 0,
    prompts: s?.prompts ?? 0,
    judged,
    not_judged: notJudged,
    unjudged: judged === 0 && notJudged > 0,
    score_rendered: s?.score_rendered ?? null,
    score_all: s?.score_all ?? null,
    render_success_rate: s?.render_success_rate ?? null,
    mean_tokens: s?.output_tokens.mean ?? null,
    p90_tokens: s?.output_tokens.p90 ?? null,
    axes: Object.fromEntries(Object.entries(s?.axes ?? {}).map(([k, v]) => [k, v.mean])),
    hybrid: hybrid
      ? {
          reward: hybrid.score_all.estimate,
          terms: Object.fromEntries(hybrid.criteria.map((c) => [c.key, c.mean])),
        }
      : null,
    summary_source: run.summary_source,
  };
}

/** Distinct labels: runs sharing a name are told apart by their directories. */
function labels(runs: readonly RunDir[]): string[] {
  const names = runs.map((r) => r.label);
  return names.map((n, i) => (names.indexOf(n) !== names.lastIndexOf(n) ? runs[i]!.dir : n));
}

function compareView(
  runs: readonly RunDir[],
  reward: string,
  eps: number,
  set: string | null,
): Comparison {
  const names = labels(runs);
  const rows = runs.map((r, i) => ({ ...row(r, reward, set), run: names[i]! }));
  const inSet = (r: EvalRecord) => set === null || (defaultSetOf(r) ?? NO_SET) === set;
  // A run nobody judged has only rule-based zeros: comparing those would hand its rival wins
  // that no judge gave, so its prompts are not compared at all.
  const means = runs.map((r, i) => ({
    label: names[i]!,
    means: rows[i]!.unjudged
      ? new Map<string, number>()
      : promptMeans(r.records.filter(inSet), reward),
  }));
  const pairwise: PairwiseRuns[] = [];
  for (let i = 0; i < runs.length; i++) {
    for (let j = i + 1; j < runs.length; j++) {
      const p = pairwiseRuns(means[i]!, means[j]!, eps);
      p.unjudged = [i, j].filter((k) => rows[k]!.unjudged).map((k) => names[k]!);
      pairwise.push(p);
    }
  }
  const axes = [...new Set(rows.flatMap((r) => Object.keys(r.axes)))];
  const hybridTerms = [...new Set(rows.flatMap((r) => Object.keys(r.hybrid?.terms ?? {})))];
  return {
    reward,
    tie_epsilon: eps,
    set,
    rows,
    axes,
    hybrid_terms: hybridTerms,
    pairwise,
    sets: {},
  };
}

/**
 * Compares runs over all prompts and, when they span two or more prompt sets (the paper's
 * Illustration / Icon benchmarks), once per set too; or over one set with `opts.set`.
 * Sets are those of the summaries (`summary.sets`, named by `set` or the prompt_id prefix).
 * @example
 * ```ts
 * const [a, b] = await Promise.all([loadRunDir('runs/base'), loadRunDir('runs/tuned')]);
 * if ('records' in a && 'records' in b) console.log(formatComparison(compareRuns([a, b])));
 * ```
 */
export function compareRuns(runs: readonly RunDir[], opts: CompareOptions = {}): Comparison {
  const reward = opts.reward ?? DEFAULT_COMPARE_REWARD;
  const eps = opts.tieEpsilon ?? DEFAULT_TIE_EPSILON;
  if (opts.set !== undefined) return compareView(runs, reward, eps, opts.set);
  const overall = compareView(runs, reward, eps, null);
  const names = [...new Set(runs.flatMap((r) => Object.keys(r.summary.sets ?? {})))].sort();
  if (names.length >= 2) {
    for (const name of names) overall.sets[name] = compareView(runs, reward, eps, name);
  }
  return overall;
}

/** The comparison as text tables: all prompts first, then one block per prompt set. */
export function formatComparison(c: Comparison): string {
  const blocks = [formatView(c)];
  for (const [name, view] of Object.entries(c.sets)) {
    blocks.push(`== prompt set ${name} ==\n${formatView(view)}`);
  }
  return blocks.join('\n\n');
}

/** A score cell: "not judged" when no judge scored the run, the bare mean when n is too small. */
function scoreCell(r: CompareRow, i: ScoreEstimate | null): string {
  if (r.unjudged) return 'not judged';
  if (!i) return '—';
  if (i.estimate !== null && (i.low === null || i.high === null) && i.note)
    return `${fmt(i.estimate)} (n too small)`;
  return fmtInterval(i as Interval);
}

function formatView(c: Comparison): string {
  const header = [
    'run',
    'n',
    'judged',
    'rubric (rendered)',
    'rubric (all)',
    'render %',
    'tokens',
    'p90 tokens',
    ...c.axes,
    ...(c.hybrid_terms.length > 0 ? ['hybrid', ...c.hybrid_terms.map((t) => `hybrid:${t}`)] : []),
  ];
  const rows = c.rows.map((r) => [
    r.run,
    String(r.n),
    String(r.judged),
    scoreCell(r, r.score_rendered),
    scoreCell(r, r.score_all),
    pct(r.render_success_rate),
    fmt(r.mean_tokens, 0),
    fmt(r.p90_tokens, 0),
    ...c.axes.map((a) => fmt(r.axes[a])),
    ...(c.hybrid_terms.length > 0
      ? [fmt(r.hybrid?.reward), ...c.hybrid_terms.map((t) => fmt(r.hybrid?.terms[t]))]
      : []),
  ]);
  const scope = c.set === null ? 'all prompts' : `prompt set ${c.set}`;
  const out = [
    `reward: ${c.reward}, ${scope}  (rubric score mean [95% CI]; axes over scored samples)`,
  ];
  out.push(formatTable(header, rows));
  const unjudged = c.rows.filter((r) => r.unjudged);
  for (const r of unjudged) {
    out.push(
      `${r.run}: not judged (0 of ${r.n} rollouts judged; ${r.not_judged} grader errors): it has no score and is not compared per prompt`,
    );
  }
  if (c.rows.some((r) => !r.unjudged && r.score_all?.low === null && r.score_all.estimate !== null))
    out.push(
      'n too small: fewer prompts than a 95% CI needs (see summary.json bootstrap.min_prompts)',
    );
  const missing = c.rows.filter((r) => r.n === 0).map((r) => r.run);
  if (missing.length > 0) out.push(`no "${c.reward}" scores in: ${missing.join(', ')}`);
  const recomputed = c.rows.filter((r) => r.summary_source === 'recomputed').map((r) => r.run);
  if (recomputed.length > 0) {
    out.push(
      `summary recomputed from results.jsonl (summary.json missing or stale): ${recomputed.join(', ')}`,
    );
  }
  if (c.pairwise.length > 0) {
    out.push('', `per-prompt mean reward, tie when |Δ| ≤ ${c.tie_epsilon}`);
    out.push(
      formatTable(
        ['A vs B', 'prompts', 'win', 'tie', 'loss', 'non-tie win rate (A)'],
        c.pairwise.map((p) => [
          `${p.a} vs ${p.b}`,
          String(p.prompts),
          String(p.wins),
          String(p.ties),
          String(p.losses),
          p.unjudged.length > 0 ? `not judged (${p.unjudged.join(', ')})` : pct(p.win_rate),
        ]),
      ),
    );
    const partial = c.pairwise.filter((p) => p.unjudged.length === 0 && p.only_a + p.only_b > 0);
    for (const p of partial) {
      out.push(`${p.a} vs ${p.b}: ${p.only_a} prompts only in ${p.a}, ${p.only_b} only in ${p.b}`);
    }
  }
  return out.join('\n');
}
