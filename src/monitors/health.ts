// Reward-health figures of one batch of scored rollouts (one training step's request, or a
// whole eval run): the signals that say a reward stopped teaching or started being gamed.
// - flat groups: every measured rollout of a prompt within ε of the others, so GRPO's
//   advantages are all ~0 (Pref-GRPO's "illusory advantage");
// - completion and SVG length (tokens), whose growth is RULER's length creep;
// - rollouts flagged by the text_in_image, clutter and judge_text checks, and the mean reward of
//   flagged vs unflagged rollouts: a hack that pays shows up as flagged rollouts out-earning
//   the rest (judge_text: text addressed to the judge; gated by default, so its flagged
//   rollouts are usually 0 with status gated and its share is what a trainer watches);
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
  /**
   * Mean reward of flagged and of unflagged **judged** rollouts (status ok): a rule-based zero
   * (no SVG, blank, did not render) is no judge's opinion of a hack, and grader faults are no
   * measurement, so neither is in these means.
   */
  mean_reward_flagged: number | null;
  mean_reward_unflagged: number | null;
  /** How many judged rollouts each mean is over. */
  judged_flagged: number;
  judged_unflagged: number;
}

/**
 * Reward health of one batch: grader faults, flat groups (no GRPO signal), lengths, and how
 * often text-in-image and clutter appear and what they earn.
 */
export interface BatchHealth {
  rollouts: number;
  /** Rollouts whose reward is a measurement (status ok or unscoreable). */
  measured: number;
  /** Rollouts a judge (or scorer) scored: status ok. The reward figures are made of these. */
  judged: number;
  grader_faults: number;
  grader_fault_share: number | null;
  /**
   * Groups with at least two measured rollouts, at least one of them judged: the groups the
   * flat-group share is taken over. Flatness is over every measured reward of the group (a
   * rule-based zero is a reward GRPO sees).
   */
  groups: number;
  flat_groups: number;
  flat_group_share: number | null;
  /**
   * Groups of two or more measured rollouts that are all rule-based zeros (nothing judged):
   * counted apart — with a judge that never answered they would make every group "flat".
   */
  rule_zero_groups: number;
  flat_epsilon: number;
  completion_tokens: LengthFigures;
  svg_tokens: LengthFigures;
  text_in_image: FlagFigures;
  clutter: FlagFigures;
  /** Text addressed to the judge (issue 41): verdicts, instructions, markers, template tokens. */
  judge_text: FlagFigures;
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
  const judged = measured.filter((r) => r.status === 'ok');
  const flagged = judged.filter(flag);
  const unflagged = judged.filter((r) => !flag(r));
  const anyFlagged = all.filter(flag).length;
  return {
    share: all.length ? anyFlagged / all.length : null,
    flagged: anyFlagged,
    mean_reward_flagged: mean(flagged.map((r) => r.reward)),
    mean_reward_unflagged: mean(unflagged.map((r) => r.reward)),
    judged_flagged: flagged.length,
    judged_unflagged: unflagged.length,
  };
}

/**
 * Figures of one batch. `groupOf(i)` names the GRPO group of the i-th record: callers pass
 * the one rule, src/core/group-key.ts (serve: groupKey of the request's items; eval: the
 * rollout's resolved prompt id). Grader faults are counted apart and left out of every figure made of
 * rewards; flat groups need a judged rollout (groups of rule-based zeros only are counted
 * apart) and the flagged / unflagged mean rewards are over judged rollouts only; lengths and
 * flags come from the deterministic inspection, which needs no judge, so they cover every rollout.
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
  const groups = new Map<string, { rewards: number[]; judged: number }>();
  const measured: Scored[] = [];
  records.forEach((r, i) => {
    if (isGraderFaultRecord(r)) return;
    measured.push(r);
    const key = groupOf(i);
    const g = groups.get(key) ?? { rewards: [], judged: 0 };
    g.rewards.push(r.reward);
    if (r.status === 'ok') g.judged++;
    groups.set(key, g);
  });
  const several = [...groups.values()].filter((g) => g.rewards.length >= 2);
  const learnable = several.filter((g) => g.judged > 0).map((g) => g.rewards);
  const ruleZeroGroups = several.length - learnable.length;
  const flat = learnable.filter((g) => Math.max(...g) - Math.min(...g) <= epsilon).length;
  const faults = records.length - measured.length;
  return {
    rollouts: records.length,
    measured: measured.length,
    judged: measured.filter((r) => r.status === 'ok').length,
    grader_faults: faults,
    grader_fault_share: records.length ? faults / records.length : null,
    groups: learnable.length,
    flat_groups: flat,
    flat_group_share: learnable.length ? flat / learnable.length : null,
    rule_zero_groups: ruleZeroGroups,
    flat_epsilon: epsilon,
    completion_tokens: lengthFigures(completionLengths(records)),
    svg_tokens: lengthFigures(svgLengths(records)),
    text_in_image: flagFigures(records, measured, (r) => r.checks?.text_in_image === true),
    clutter: flagFigures(records, measured, (r) => r.checks?.clutter === true),
    judge_text: flagFigures(records, measured, (r) => r.checks?.judge_text === true),
  };
}
