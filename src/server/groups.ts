// GRPO groups inside one /v1/rewards request: rollouts that share a prompt (same prompt_id,
// else the same prompt text after whitespace normalisation) form a group, and each result
// carries its group's statistics and its advantage A_i = (R_i − mean) / (std + ε).
import type { ScoreRecord } from '../core/record.ts';
import type { RolloutInput } from '../pipeline/types.ts';
import type { GroupStats } from './schemas.ts';

export const ADVANTAGE_EPS = 1e-6;

export function groupKey(item: RolloutInput): string {
  if (item.prompt_id) return item.prompt_id;
  if (item.prompt) return `prompt:${item.prompt.trim().replace(/\s+/g, ' ')}`;
  // No prompt at all: the rollout is alone in its group.
  return `id:${item.id}`;
}

/**
 * Stats per group over the rewards exactly as returned (an unscoreable rollout counts with
 * reward 0, as the trainer sees it). std is the unbiased (n − 1) estimate, matching verl's
 * GRPO (torch.std); a group of one has std 0 and advantage 0.
 */
export function groupStats(
  items: RolloutInput[],
  records: ScoreRecord[],
  eps = ADVANTAGE_EPS,
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
    const n = rewards.length;
    const mean = rewards.reduce((a, b) => a + b, 0) / n;
    const variance = n > 1 ? rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / (n - 1) : 0;
    const std = Math.sqrt(variance);
    const group: GroupStats = {
      key,
      size: n,
      mean,
      std,
      min: Math.min(...rewards),
      max: Math.max(...rewards),
    };
    for (const i of idx) {
      const advantage = n > 1 ? (records[i]!.reward - mean) / (std + eps) : 0;
      out[i] = { group, advantage };
    }
  }
  return out;
}
