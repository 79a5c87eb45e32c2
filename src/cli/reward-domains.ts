// Refuses, before any model or render, a reward that does not apply to the domain of a
// rollout in the input file (src/reward/applies.ts): one usage line naming the reward and the
// domain (exit 2), never a 0 per rollout. The file is only read when a requested reward is
// refused somewhere (a hybrid reward with a think term), so other runs pay nothing.
import { existsSync, readFileSync } from 'node:fs';
import type { DomainId } from '../core/domain-ids.ts';
import type { RewardKind } from '../core/record.ts';
import { checkRewardsApply, rolloutDomains, ScorerConfigError } from '../pipeline/score.ts';
import { rewardsRestricted } from '../reward/applies.ts';
import type { HybridRewarder } from '../reward/hybrid.ts';
import { resolveLambdas } from '../reward/hybrid.ts';
import { UsageError } from './usage-error.ts';

/** Throws UsageError when a requested reward does not apply to a rollout's domain in `file`. */
export function checkRolloutFileApplies(
  file: string,
  kinds: readonly RewardKind[],
  hybrid: HybridRewarder | undefined,
  fallback?: DomainId | 'auto',
): void {
  const apply = {
    hybridThink: hybrid ? resolveLambdas(hybrid.config.lambdas).think : undefined,
  };
  if (!rewardsRestricted(kinds, apply) || !existsSync(file)) return;
  const rows: { completion: string; domain?: DomainId | null }[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const v = JSON.parse(line) as { completion?: unknown; domain?: unknown };
      if (typeof v.completion !== 'string') continue; // the runner reports bad lines
      rows.push({
        completion: v.completion,
        domain: typeof v.domain === 'string' ? (v.domain as DomainId) : null,
      });
    } catch {
      // not JSON: the runner reports it with its line number
    }
  }
  try {
    checkRewardsApply(kinds, rolloutDomains(rows, fallback), apply);
  } catch (err) {
    if (err instanceof ScorerConfigError) throw new UsageError(`${err.message} (${file})`);
    throw err;
  }
}
