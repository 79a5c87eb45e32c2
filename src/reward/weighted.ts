// RULER's reward: a weighted mean of per-item scores, R = Σ w_k·s_k / Σ w_k.
// Negative weights (Rubric-S's text penalty, −2) subtract from the numerator but do not
// enter the denominator: R = Σ_k w_k·s_k / Σ_{w_k>0} w_k, clamped to [0,1]. So a
// perfect picture with no penalised text scores 1, and the penalty can at most take
// 2/24 of the scale away from an otherwise perfect picture (clamped at 0 below).
import type { CriterionScore } from '../core/criteria.ts';
import type { Axis } from '../rubric/schema.ts';
import { group, leaf, nodeValue } from './tree.ts';

/** The axes an ablation can drop (every rubric axis but the penalty). */
export type DropAxis = Exclude<Axis, 'penalty'>;
/** The axes an ablation may drop. */
export const DROP_AXES: readonly DropAxis[] = ['semantic', 'visual', 'style'];

/** True when `s` names an axis an ablation may drop (for the `--drop-axis` flag). */
export function isDropAxis(s: string): s is DropAxis {
  return (DROP_AXES as readonly string[]).includes(s);
}

/** An axis ablation: leave one axis's criteria out of the reward. */
export interface WeightedRewardOptions {
  /** Leave out every criterion of this axis (the paper's axis ablations). */
  dropAxis?: DropAxis;
}

/**
 * The weighted reward of a flat list of scored criteria: the value of one group of leaves
 * under the tree's rules (src/reward/tree.ts). Returns null when a kept criterion has no score
 * (the caller reports the rollout unscoreable; a missing score is never a 0) or when nothing
 * with a positive weight is left.
 * @example
 * ```ts
 * const r = weightedReward([
 *   { axis: 'semantic', weight: 5, score: 1 },
 *   { axis: 'visual', weight: 4, score: 0.5 },
 * ]); // (5·1 + 4·0.5) / 9 ≈ 0.778
 * ```
 */
export function weightedReward(
  criteria: readonly Pick<CriterionScore, 'axis' | 'weight' | 'score'>[],
  opts: WeightedRewardOptions = {},
): number | null {
  const kept = opts.dropAxis ? criteria.filter((c) => c.axis !== opts.dropAxis) : criteria;
  return nodeValue(
    group(
      'criteria',
      1,
      kept.map((c, i) => leaf({ key: String(i), ...c })),
    ),
  );
}
