// `--reward` of score, serve and eval: one reward or a comma list ("ruler,hybrid"), computed
// from one inspection per rollout; the first is each record's `reward`.
import { REWARD_KINDS, type RewardKind } from '../core/record.ts';
import { needsRubrics } from '../reward/kinds/index.ts';
import { UsageError } from './usage-error.ts';

export const REWARD_FLAG_HELP = `reward(s), comma-separated, the first is "reward": ${REWARD_KINDS.join(' | ')}`;

export function parseRewardFlag(value: string, flag = '--reward'): RewardKind[] {
  const parts = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0)
    throw new UsageError(`${flag} is empty (one of ${REWARD_KINDS.join(', ')})`);
  for (const p of parts) {
    if (!(REWARD_KINDS as readonly string[]).includes(p)) {
      throw new UsageError(
        `${flag} must be one of ${REWARD_KINDS.join(', ')} (or a comma list), got "${p}"`,
      );
    }
  }
  return [...new Set(parts as RewardKind[])];
}

/** What the requested rewards need from the command line. */
export function rewardNeeds(kinds: readonly RewardKind[]): {
  judge: boolean;
  rubrics: boolean;
  hybrid: boolean;
} {
  return {
    judge: kinds.some((k) => k !== 'hybrid'),
    rubrics: kinds.some(needsRubrics),
    hybrid: kinds.includes('hybrid'),
  };
}
