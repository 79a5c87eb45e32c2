// summarizeRun: the numbers of one eval run (results.jsonl) per reward kind — the paper's
// table columns (rubric score, render success, tokens, per-axis means) with bootstrap CIs,
// plus what a careful reader checks next: unscoreable counts by reason, grader errors kept
// apart from bad drawings, reward-hacking monitors and DwT coverage. Plain JSON out.

import { isDerivedKey } from '../core/group-key.ts';
import type { ScoreRecord } from '../core/record.ts';
import { isUnjudged } from '../core/status.ts';
import { addUsage, emptyUsage, type Usage } from '../core/usage.ts';
import { type EvalHealth, evalHealth } from '../monitors/eval-health.ts';
import { type JudgeIntervals, judgeIntervals } from './judge-intervals.ts';
import {
  type BootstrapOptions,
  bootstrapCI,
  bootstrapOptions,
  type Interval,
} from './stats/bootstrap.ts';
import { type DistributionSummary, describe } from './stats/distribution.ts';
import type { EvalRecord } from './types.ts';

export const RUN_SUMMARY_SCHEMA = 'rubrica.run-summary/1';

export interface SummaryOptions extends BootstrapOptions {
  /** The prompt set a record belongs to; default {@link defaultSetOf}. */
  setOf?: (record: EvalRecord) => string | null;
  /** Fewest prompts with a value for a bootstrap interval; default {@link MIN_CI_PROMPTS}. */
  minPrompts?: number;
}

/**
 * A percentile bootstrap over fewer clusters than this covers far less than its nominal 95%
 * (and over one prompt it is a single value repeated): below it the interval is null and the
 * note says "n too small".
 */
export const MIN_CI_PROMPTS = 10;

/** A score mean with its interval and what it rests on, so every figure can show its n. */
export interface ScoreEstimate extends Interval {
  /** Samples averaged. */
  n: number;
  /** Prompts those samples come from (the bootstrap's units that carry a value). */
  prompts: number;
  /**
   * Why the estimate or its interval is missing ("none judged: 0 of 300 rollouts judged (283 not
   * judged, 17 failed before judging)", "n too small: …"), else null.
   */
  note: string | null;
}

export interface AxisMean {
  mean: number | null;
  /** Records with at least one scored criterion on this axis. */
  n: number;
}

export interface CriterionMean {
  key: string;
  axis: string;
  weight: number;
  mean: number | null;
  n: number;
}

export interface RewardSummary {
  reward_kind: string;
  /** Records carrying this reward. */
  n: number;
  prompts: number;
  /** Records whose SVG rendered (checks.renders), blank pictures included. */
  rendered: number;
  render_success_rate: number | null;
  /** Records a judge or scorer gave a score (status ok). */
  judged: number;
  /** Records no grader judged (grader errors and no_rubric): left out of the scores. */
  not_judged: number;
  /**
   * Mean reward over rendered samples, grader errors left out (the paper's convention).
   * The estimate is null with a note when nothing was judged: a run whose judge never
   * answered has no score, not the mean of its rule-based zeros.
   */
  score_rendered: ScoreEstimate;
  /** Mean reward over all samples, failures counting their reward of 0, grader errors left out. */
  score_all: ScoreEstimate;
  /** Per-axis mean of each record's |weight|-weighted axis score. */
  axes: Record<string, AxisMean>;
  criteria: CriterionMean[];
  /** checks.output_tokens over all records. */
  output_tokens: DistributionSummary;
  /** checks.svg_tokens mean over records that had an SVG (> 0 tokens). */
  svg_tokens_mean: number | null;
  /** status "unscoreable" counts by reason, grader errors excluded. */
  unscoreable: Record<string, number>;
  /** Grader failures by reason (judge_error, scorer_error, no_rubric). */
  grader_errors: Record<string, number>;
  /**
   * status "gated" counts by the gated check (issue 41): the policy's 0, no judge call; in the
   * score means like any rule-based zero, never among the grader errors.
   */
  gated: Record<string, number>;
  /** Reward-hacking monitors: shares among rendered samples. */
  hacking: {
    text_in_image: number | null;
    clutter: number | null;
    blank: number | null;
    /** Text addressed to the judge (checks/judge-text.ts). */
    judge_text: number | null;
  };
  /** The same monitors as counts (out of `rendered`). */
  hacking_counts: { text_in_image: number; clutter: number; blank: number; judge_text: number };
  /** Drawing-with-Thought coverage; meaningful only when `applicable`. */
  dwt: { applicable: boolean; with_stages: number; valid: number; coverage: number | null };
  /** Reward-health monitors (src/monitors): flat groups, lengths, flags and their rewards, faults, alerts. */
  health: EvalHealth;
  /**
   * The judge's reward intervals averaged overall, per prompt and per run (issue 37); null
   * when no judged record carries one (absent in summaries written before intervals).
   */
  judge_intervals?: JudgeIntervals | null;
  usage: Usage;
  cached: number;
}

export interface SetSummary {
  records: number;
  prompts: number;
  rewards: Record<string, RewardSummary>;
}

/**
 * An eval run's summary (summary.json): per reward its score with a prompt-level bootstrap
 * interval, overall and per prompt set.
 */
export interface RunSummary {
  schema: typeof RUN_SUMMARY_SCHEMA;
  /** Distinct `run` names among the records. */
  runs: string[];
  records: number;
  prompts: number;
  rewards: Record<string, RewardSummary>;
  /** Per prompt set; {} when no record names a set. Records without one go to "(none)". */
  sets: Record<string, SetSummary>;
  bootstrap: {
    resamples: number;
    seed: number;
    level: number;
    unit: 'prompt';
    /** Fewest prompts with a value for an interval to be drawn. */
    min_prompts: number;
  };
}

export const NO_SET = '(none)';

/**
 * A record's prompt set: its `set` field, else the prompt_id part before the first "/". A
 * prompt known only by its text (a `prompt:` group key, src/core/group-key.ts) has no set.
 */
export function defaultSetOf(record: EvalRecord): string | null {
  const set = (record as EvalRecord & { set?: unknown }).set;
  if (typeof set === 'string' && set.length > 0) return set;
  if (isDerivedKey(record.prompt_id)) return null;
  const slash = record.prompt_id.indexOf('/');
  return slash > 0 ? record.prompt_id.slice(0, slash) : null;
}

const share = (k: number, n: number): number | null => (n > 0 ? k / n : null);

function count(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** One prompt's contribution to a pooled mean, summed once so a resample costs O(prompts). */
interface PromptSum {
  sum: number;
  n: number;
}

/** Mean of every value of the resampled prompts (a cluster bootstrap over prompts). */
function pooledMean(units: readonly PromptSum[]): number | null {
  let sum = 0;
  let n = 0;
  for (const u of units) {
    sum += u.sum;
    n += u.n;
  }
  return n > 0 ? sum / n : null;
}

/** Settings of one summary: bootstrap plus the fewest prompts an interval needs. */
type ScoreOptions = Required<BootstrapOptions> & { minPrompts: number };

/**
 * Every prompt is a unit, including those with no value here (e.g. nothing rendered): how many
 * samples land in the denominator is part of the uncertainty of a ratio like the rendered mean.
 * `unjudged` is set when no sample was judged although some were meant to be: then there is
 * no score at all, only the note saying so.
 */
function meanInterval(
  byPrompt: Map<string, number[]>,
  prompts: ReadonlySet<string>,
  opts: ScoreOptions,
  unjudged: string | null,
): ScoreEstimate {
  const units = [...prompts].map((p) => {
    const values = byPrompt.get(p) ?? [];
    return { sum: values.reduce((a, b) => a + b, 0), n: values.length };
  });
  const n = units.reduce((a, u) => a + u.n, 0);
  const withValue = units.filter((u) => u.n > 0).length;
  const base = { n, prompts: withValue };
  if (unjudged !== null) {
    return {
      ...base,
      estimate: null,
      low: null,
      high: null,
      level: opts.level,
      resamples: opts.resamples,
      valid: 0,
      note: unjudged,
    };
  }
  if (withValue < opts.minPrompts) {
    // The point estimate stands; an interval from so few prompts would claim too much.
    const estimate = pooledMean(units);
    const note =
      estimate === null
        ? null
        : `n too small: ${withValue} prompt${withValue === 1 ? '' : 's'} (a 95% CI needs ≥ ${opts.minPrompts})`;
    return {
      ...base,
      estimate,
      low: null,
      high: null,
      level: opts.level,
      resamples: opts.resamples,
      valid: 0,
      note,
    };
  }
  return { ...base, ...bootstrapCI(units, pooledMean, opts), note: null };
}

/** The record's axis scores: Σ|w|·s / Σ|w| over scored criteria of each axis. */
export function axisScores(s: ScoreRecord): Map<string, number> {
  const acc = new Map<string, { ws: number; w: number; plain: number[] }>();
  for (const c of s.criteria ?? []) {
    if (c.score === null || !Number.isFinite(c.score)) continue;
    const a = acc.get(c.axis) ?? { ws: 0, w: 0, plain: [] };
    a.ws += Math.abs(c.weight) * c.score;
    a.w += Math.abs(c.weight);
    a.plain.push(c.score);
    acc.set(c.axis, a);
  }
  const out = new Map<string, number>();
  for (const [axis, a] of acc) {
    // All-zero weights: fall back to the plain mean rather than dividing by zero.
    out.set(axis, a.w > 0 ? a.ws / a.w : a.plain.reduce((x, y) => x + y, 0) / a.plain.length);
  }
  return out;
}

// Long because it is one pass over a run's records filling every figure of the summary; the
// statistics themselves (bootstrap, quantiles) live in eval/stats.
export function summarizeReward(
  kind: string,
  scored: readonly { prompt_id: string; run?: string; score: ScoreRecord }[],
  opts: ScoreOptions,
): RewardSummary {
  const rendered = new Map<string, number[]>();
  const all = new Map<string, number[]>();
  const prompts = new Set<string>();
  const axisAcc = new Map<string, number[]>();
  const critAcc = new Map<string, { axis: string; weight: number; scores: number[] }>();
  const unscoreable: Record<string, number> = {};
  const gated: Record<string, number> = {};
  const graderErrors: Record<string, number> = {};
  const tokens: number[] = [];
  const svgTokens: number[] = [];
  let renderedCount = 0;
  let text = 0;
  let judgeText = 0;
  let clutter = 0;
  let blank = 0;
  let withStages = 0;
  let dwtValid = 0;
  let cached = 0;
  let judged = 0;
  let usage = emptyUsage();

  for (const { prompt_id, score: s } of scored) {
    prompts.add(prompt_id);
    const checks = s.checks;
    const renders = checks?.renders === true;
    if (renders) {
      renderedCount++;
      if (checks.text_in_image) text++;
      if (checks.judge_text) judgeText++;
      if (checks.clutter) clutter++;
      if (checks.blank) blank++;
    }
    if (Number.isFinite(checks?.output_tokens)) tokens.push(checks.output_tokens);
    if ((checks?.svg_tokens ?? 0) > 0) svgTokens.push(checks.svg_tokens);
    if ((checks?.dwt_stages?.length ?? 0) > 0) withStages++;
    if (checks?.dwt_valid) dwtValid++;
    if (s.cached) cached++;
    if (s.usage) usage = addUsage(usage, s.usage);

    if (isUnjudged(s)) {
      count(graderErrors, s.reason ?? 'unknown');
      continue;
    }
    if (s.status === 'unscoreable') count(unscoreable, s.reason ?? 'unknown');
    if (s.status === 'gated') count(gated, s.reason ?? 'unknown');
    if (s.status === 'ok') judged++;
    const reward = Number.isFinite(s.reward) ? s.reward : 0;
    push(all, prompt_id, reward);
    if (renders) push(rendered, prompt_id, reward);
    for (const [axis, v] of axisScores(s)) push(axisAcc, axis, v);
    for (const c of s.criteria ?? []) {
      if (c.score === null || !Number.isFinite(c.score)) continue;
      const a = critAcc.get(c.key) ?? { axis: c.axis, weight: c.weight, scores: [] };
      a.scores.push(c.score);
      critAcc.set(c.key, a);
    }
  }

  const meanOf = (v: number[]) => (v.length > 0 ? v.reduce((a, b) => a + b, 0) / v.length : null);
  const axes: Record<string, AxisMean> = {};
  for (const [axis, v] of axisAcc) axes[axis] = { mean: meanOf(v), n: v.length };
  const notJudged = Object.values(graderErrors).reduce((a, b) => a + b, 0);
  // Rule-based zeros (blank, no SVG) next to rollouts no judge saw are no measurement of the
  // run: with nothing judged there is no score. A run whose every rollout failed on its own
  // (no grader error) did get its zeros honestly and keeps them.
  // Said as a count of what was judged ("0 of 300 judged"), the same way round as the
  // report's "283 of 300 not judged" tile: "not judged: 0 of 300" read as "none not judged".
  const unjudged =
    judged === 0 && notJudged > 0
      ? `none judged: 0 of ${scored.length} rollouts judged (${notJudged} not judged, ${scored.length - notJudged} failed before judging)`
      : null;
  return {
    reward_kind: kind,
    n: scored.length,
    prompts: prompts.size,
    rendered: renderedCount,
    render_success_rate: share(renderedCount, scored.length),
    judged,
    not_judged: notJudged,
    score_rendered: meanInterval(rendered, prompts, opts, unjudged),
    score_all: meanInterval(all, prompts, opts, unjudged),
    axes,
    criteria: [...critAcc].map(([key, a]) => ({
      key,
      axis: a.axis,
      weight: a.weight,
      mean: meanOf(a.scores),
      n: a.scores.length,
    })),
    output_tokens: describe(tokens),
    svg_tokens_mean: meanOf(svgTokens),
    unscoreable,
    grader_errors: graderErrors,
    gated,
    hacking: {
      text_in_image: share(text, renderedCount),
      clutter: share(clutter, renderedCount),
      blank: share(blank, renderedCount),
      judge_text: share(judgeText, renderedCount),
    },
    hacking_counts: { text_in_image: text, clutter, blank, judge_text: judgeText },
    dwt: {
      applicable: withStages > 0,
      with_stages: withStages,
      valid: dwtValid,
      coverage: withStages > 0 ? share(dwtValid, scored.length) : null,
    },
    health: evalHealth(scored),
    judge_intervals: judgeIntervals(scored),
    usage,
    cached,
  };
}

function summarizeRewards(
  records: readonly EvalRecord[],
  opts: ScoreOptions,
): Record<string, RewardSummary> {
  const byKind = new Map<string, { prompt_id: string; run: string; score: ScoreRecord }[]>();
  for (const r of records) {
    for (const [kind, score] of Object.entries(r.scores ?? {})) {
      if (!score) continue;
      push(byKind, kind, { prompt_id: r.prompt_id, run: r.run, score });
    }
  }
  // "universal" first (the paper's evaluation metric), then the others by name.
  const kinds = [...byKind.keys()].sort((a, b) =>
    a === 'universal' ? -1 : b === 'universal' ? 1 : a.localeCompare(b),
  );
  const out: Record<string, RewardSummary> = {};
  for (const kind of kinds) out[kind] = summarizeReward(kind, byKind.get(kind)!, opts);
  return out;
}

/** Summarises one run's records; deterministic for a given seed. */
export function summarizeRun(
  records: readonly EvalRecord[],
  opts: SummaryOptions = {},
): RunSummary {
  const boot = bootstrapOptions(opts);
  const scoreOpts = { ...boot, minPrompts: opts.minPrompts ?? MIN_CI_PROMPTS };
  const setOf = opts.setOf ?? defaultSetOf;
  const bySet = new Map<string, EvalRecord[]>();
  let anySet = false;
  for (const r of records) {
    const set = setOf(r);
    if (set !== null) anySet = true;
    push(bySet, set ?? NO_SET, r);
  }
  const sets: Record<string, SetSummary> = {};
  if (anySet) {
    for (const [name, rs] of [...bySet].sort(([a], [b]) => a.localeCompare(b))) {
      sets[name] = {
        records: rs.length,
        prompts: new Set(rs.map((r) => r.prompt_id)).size,
        rewards: summarizeRewards(rs, scoreOpts),
      };
    }
  }
  return {
    schema: RUN_SUMMARY_SCHEMA,
    runs: [...new Set(records.map((r) => r.run))].sort(),
    records: records.length,
    prompts: new Set(records.map((r) => r.prompt_id)).size,
    rewards: summarizeRewards(records, scoreOpts),
    sets,
    bootstrap: { ...boot, unit: 'prompt', min_prompts: scoreOpts.minPrompts },
  };
}
