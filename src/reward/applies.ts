// Which reward applies to which domain. Every reward reads the inspection of its domain (the
// code, the picture, the checks), so most apply everywhere; the exception is the hybrid
// reward's think term, Reason-SVG's Drawing-with-Thought (concept sketching, canvas planning,
// shape decomposition, coordinate calculation, …): a plan for drawing SVG shapes, which a
// matplotlib script or a web page has no reason to write. So `hybrid` applies outside svg
// only with λt = 0 (its render, semantic and aesthetic terms read any picture). A reward that
// does not apply is refused before any work (a usage error naming both), never a 0 per
// rollout (docs/domains.md#rewards-per-domain).
import { DOMAIN_IDS, type DomainId } from '../core/domain-ids.ts';
import type { RewardKind } from '../core/record.ts';

/** What decides applicability beyond the kind: the hybrid reward's think weight λt. */
export interface ApplyOptions {
  /** λt of the hybrid reward in use (default Reason-SVG's 0.1). */
  hybridThink?: number;
}

/**
 * Why reward `kind` cannot score rollouts of `domain`, or null when it can.
 * @example
 * ```ts
 * rewardDomainProblem('hybrid', 'python'); // "reward hybrid does not apply to domain python: …"
 * rewardDomainProblem('prisma', 'python'); // null
 * ```
 */
export function rewardDomainProblem(
  kind: RewardKind,
  domain: DomainId,
  o: ApplyOptions = {},
): string | null {
  if (kind === 'hybrid' && domain !== 'svg' && (o.hybridThink ?? 0.1) > 0) {
    return `reward hybrid does not apply to domain ${domain}: its think term scores Drawing-with-Thought, a plan for drawing SVG (use --lambda-think 0, or another reward)`;
  }
  return null;
}

/**
 * Whether any of `kinds` is refused for some domain, so callers detect rollout domains only
 * when it can matter (every reward but a think-weighted hybrid applies everywhere).
 */
export function rewardsRestricted(kinds: readonly RewardKind[], o: ApplyOptions = {}): boolean {
  return kinds.some((k) => DOMAIN_IDS.some((d) => rewardDomainProblem(k, d, o) !== null));
}
