// Reward-health figures of one batch of scored rollouts (one training step's request, or a
// whole eval run): the signals that say a reward stopped teaching or started being gamed.
// - flat groups: every measured rollout of a prompt within ε of the others, so GRPO's
//   advantages are all ~0 (Pref-GRPO's "illusory advantage");
// - completion and SVG length (tokens), whose growth is RULER's length creep;
// - rollouts flagged by the text_in_image and clutter checks, and the mean reward of flagged vs
//   unflagged rollouts: a hack that pays shows up as flagged rollouts out-earning the rest;
// - grader faults (judge, scorer, cache, infrastructure), which are not measurements.
import { quantileSorted } from 'simple-statistics';
import type { ScoreRecord } from '../core/record.ts';
import { isGraderFaultRecord } from '../core/status.ts';

export interface LengthFigures {
  n: number;
  mean: number | null;
  p95: number | null;
}

export interface FlagFigures {
  /** Share of rollouts whose picture the check flagged (checks need no judge: faults count). */
  share: number | null;
  flagged: number;
  /** Mean reward of flagged and of unflagged measured rollouts (grader faults left out). */
  mean_reward_flagged: number | null;
  mean_reward_unflagged: number | null;
}

/**
 * Reward health of one batch: grader faults, flat groups (no GRPO signal), lengths, and how
 * often text-in-image and clutter appear and what they earn.
 */
export interface BatchHealth {
  rollouts: number;
  /** Rollouts whose reward is a measurement (status ok or unscoreable). */
  measured: number;
  grader_faults: number;
  grader_fault_share: number | null;
  /** Groups with at least two measured rollouts (the ones GRPO can learn from). */
  groups: number;
  flat_groups: number;
  flat_group_share: number | null;
  flat_epsilon: number;
  completion_tokens: LengthFigures;
  svg_tokens: LengthFigures;
  text_in_image: FlagFigures;
  clutter: FlagFigures;
}

export const DEFAULT_FLAT_EPSILON = 0.01;

type Scored = Pick<ScoreRecord, 'reward' | 'status' | 'reason' | 'checks'>;

const mean = (xs: readonly number[]) =>
  xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;

export function lengthFigures(values: readonly number[]): LengthFigures {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return {
    n: sorted.length,
    mean: mean(sorted),
    p95: sorted.length ? quantileSorted(sorted, 0.95) : null,
  };
}

export const completionLengths = (records: readonly Scored[]): number[] =>
  records.map((r) => r.checks?.output_tokens ?? Number.NaN);

/** Rollouts without an SVG have no SVG length (0 would drag the mean down). */
export const svgLengths = (records: readonly Scored[]): number[] =>
  records.map((r) => r.checks?.svg_tokens ?? 0).filter((n) => n > 0);

function flagFigures(
  all: readonly Scored[],
  measured: readonly Scored[],
  flag: (r: Scored) => boolean,
): FlagFigures {
  const flagged = measured.filter(flag);
  const unflagged = measured.filter((r) => !flag(r));
  const anyFlagged = all.filter(flag).length;
  return {
    share: all.length ? anyFlagged / all.length : null,
    flagged: anyFlagged,
    mean_reward_flagged: mean(flagged.map((r) => r.reward)),
    mean_reward_unflagged: mean(unflagged.map((r) => r.reward)),
  };
}

/**
 * Figures of one batch. `groupOf(i)` names the GRPO group of the i-th record: callers pass
 * the one rule, src/core/group-key.ts (serve: groupKey of the request's items; eval: the
 * rollout's resolved prompt id). Grader faults are counted apart and left out of every figure made of
 * rewards (flat groups, mean rewards); lengths and flags come from the deterministic
 * inspection, which needs no judge, so they cover every rollout.
 * @example
 * ```ts
 * const h = batchHealth(records, (i) => groupKey(records[i] ?? { id: String(i) }));
 * ```
 */
export function batchHealth(
  records: readonly Scored[],
  groupOf: (i: number) => string,
  epsilon = DEFAULT_FLAT_EPSILON,
): BatchHealth {
  const groups = new Map<string, number[]>();
  const measured: Scored[] = [];
  records.forEach((r, i) => {
    if (isGraderFaultRecord(r)) return;
    measured.push(r);
    const key = groupOf(i);
    const g = groups.get(key);
    if (g) g.push(r.reward);
    else groups.set(key, [r.reward]);
  });
  const learnable = [...groups.values()].filter((g) => g.length >= 2);
  const flat = learnable.filter((g) => Math.max(...g) - Math.min(...g) <= epsilon).length;
  const faults = records.length - measured.length;
  return {
    rollouts: records.length,
    measured: measured.length,
    grader_faults: faults,
    grader_fault_share: records.length ? faults / records.length : null,
    groups: learnable.length,
    flat_groups: flat,
    flat_group_share: learnable.length ? flat / learnable.length : null,
    flat_epsilon: epsilon,
    completion_tokens: lengthFigures(completionLengths(records)),
    svg_tokens: lengthFigures(svgLengths(records)),
    text_in_image: flagFigures(records, measured, (r) => r.checks?.text_in_image === true),
    clutter: flagFigures(records, measured, (r) => r.checks?.clutter === true),
  };
}
