// Alert thresholds on the reward-health figures, and the check that says which are crossed.
// Each alert names the figure, its value and the limit, so the warning line alone tells an
// operator what happened ("flat_group_share 0.62 > 0.5").
import type { BatchHealth } from './health.ts';

/** The limits past which a reward-health figure raises an alert. */
export interface AlertThresholds {
  /** Share of learnable groups that are flat. */
  flat_group_share: number;
  /** Share of rollouts that were grader faults. */
  grader_fault_share: number;
  /** Share flagged by text_in_image / clutter. */
  text_in_image_share: number;
  clutter_share: number;
  /** Mean reward of flagged minus unflagged rollouts: above this, the hack pays. */
  flagged_reward_premium: number;
  /** Relative growth of the running mean length per step (0.02 = 2% a step). */
  length_growth_per_step: number;
}

/**
 * The default alert limits: half the groups flat, 5% grader faults, 10% flagged, any reward
 * premium for flagged rollouts, 2% length growth a step.
 */
export const DEFAULT_ALERTS: Readonly<AlertThresholds> = Object.freeze({
  flat_group_share: 0.5,
  grader_fault_share: 0.05,
  text_in_image_share: 0.1,
  clutter_share: 0.1,
  flagged_reward_premium: 0,
  length_growth_per_step: 0.02,
});

export type AlertName = keyof AlertThresholds | `${'completion' | 'svg'}_length_growth`;

export interface Alert {
  alert: AlertName;
  value: number;
  limit: number;
  message: string;
}

/** Growth figures the running monitor adds to a batch's (relative change per step). */
export interface GrowthFigures {
  completion: number | null;
  svg: number | null;
}

function over(alert: AlertName, value: number | null, limit: number, what: string): Alert[] {
  if (value === null || !Number.isFinite(value) || value <= limit) return [];
  const f = (x: number) => (Math.abs(x) < 10 ? x.toFixed(3) : x.toFixed(0));
  return [{ alert, value, limit, message: `${what}: ${alert} ${f(value)} > ${f(limit)}` }];
}

function premium(f: BatchHealth['clutter']): number | null {
  if (f.flagged === 0 || f.mean_reward_flagged === null || f.mean_reward_unflagged === null)
    return null;
  return f.mean_reward_flagged - f.mean_reward_unflagged;
}

/** The thresholds a batch (and its growth figures) crosses. */
export function checkAlerts(
  h: BatchHealth,
  growth: GrowthFigures | null,
  t: AlertThresholds,
): Alert[] {
  return [
    ...over(
      'flat_group_share',
      h.flat_group_share,
      t.flat_group_share,
      'flat GRPO groups among groups with a judged rollout (no signal)',
    ),
    ...over('grader_fault_share', h.grader_fault_share, t.grader_fault_share, 'grader faults'),
    ...over(
      'text_in_image_share',
      h.text_in_image.share,
      t.text_in_image_share,
      'text written into pictures',
    ),
    ...over('clutter_share', h.clutter.share, t.clutter_share, 'cluttered pictures'),
    ...over(
      'flagged_reward_premium',
      Math.max(premium(h.text_in_image) ?? -Infinity, premium(h.clutter) ?? -Infinity),
      t.flagged_reward_premium,
      'flagged judged rollouts out-earn the unflagged judged ones (a hack that pays)',
    ),
    ...over(
      'completion_length_growth',
      growth?.completion ?? null,
      t.length_growth_per_step,
      'completion length growing',
    ),
    ...over(
      'svg_length_growth',
      growth?.svg ?? null,
      t.length_growth_per_step,
      'SVG length growing',
    ),
  ];
}

/** Parses `name=value,name=value` into thresholds over the defaults (for CLI flags). */
export function parseAlertThresholds(spec: string | undefined): AlertThresholds {
  const out: AlertThresholds = { ...DEFAULT_ALERTS };
  if (!spec) return out;
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, raw] = part.split('=');
    const value = Number(raw);
    if (!name || !(name in DEFAULT_ALERTS) || raw === undefined || !Number.isFinite(value)) {
      throw new Error(
        `bad alert threshold "${part}" (name=value; names: ${Object.keys(DEFAULT_ALERTS).join(', ')})`,
      );
    }
    out[name as keyof AlertThresholds] = value;
  }
  return out;
}
