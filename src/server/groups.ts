// GRPO groups inside one /v1/rewards request: rollouts that share a prompt (same prompt_id,
// else the same prompt text after whitespace normalisation) form a group, and each result
// carries its group's statistics and its advantage A_i = (R_i − mean) / (std + ε).
import type { ScoreRecord } from '../core/record.ts';
import type { RolloutInput } from '../pipeline/types.ts';
import { GRPO_EPSILON, groupAdvantages, sampleStd } from '../reward/grpo.ts';
import type { GroupStats } from './schemas.ts';

export function groupKey(item: RolloutInput): string {
  if (item.prompt_id) return item.prompt_id;
  if (item.prompt) return `prompt:${item.prompt.trim().replace(/\s+/g, ' ')}`;
  // No prompt at all: the rollout is alone in its group.
  return `id:${item.id}`;
}

/**
 * Stats per group over the rewards exactly as returned (an unscoreable rollout counts with
 * reward 0, as the trainer sees it). std is the sample (n − 1) estimate and the advantage is
 * the reward room's groupAdvantages, which follows verl's GRPO; for a group of one verl uses
 * mean 0 / std 1, so its advantage is R/(1+ε) while the reported stats stay descriptive.
 */
export function groupStats(
  items: RolloutInput[],
  records: ScoreRecord[],
  eps = GRPO_EPSILON,
): Array<{ group: GroupStats; advantage: number }> {
  const members = new Map<string, number[]>();
  items.forEach((item, i) => {
    const key = groupKey(item);
    const list = members.get(key);
    if (list) list.push(i);
    else members.set(key, [i]);
  });
  const out = new Array<{ group: GroupStats; advantage: number }>(items.length);
  for (const [key, idx] of members) {
    const rewards = idx.map((i) => records[i]!.reward);
    const group: GroupStats = {
      key,
      size: rewards.length,
      mean: rewards.reduce((a, b) => a + b, 0) / rewards.length,
      std: sampleStd(rewards),
      min: Math.min(...rewards),
      max: Math.max(...rewards),
    };
    const advantages = groupAdvantages(rewards, eps);
    idx.forEach((i, k) => {
      out[i] = { group, advantage: advantages[k]! };
    });
  }
  return out;
}
