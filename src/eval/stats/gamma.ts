// Goodman–Kruskal γ within groups: the paper's "does the judge order each prompt's images the
// way people do" statistic. Pairs are formed only inside a group (one prompt's images); pairs
// tied in either score are excluded. We report the pooled form Σ(C−D)/Σ(C+D), which weights
// each group by its number of untied pairs, and the plain mean of per-group γ beside it.
import { pairCounts } from './kendall.ts';

export interface GroupScores {
  /** Predicted scores of the group's items. */
  x: readonly number[];
  /** Human scores of the same items, same order. */
  y: readonly number[];
}

export interface GammaResult {
  /** Σ(C−D) / Σ(C+D) over all groups; null when no group has an untied pair. */
  pooled: number | null;
  /** Mean of (C−D)/(C+D) over the groups that have at least one untied pair; else null. */
  meanPerGroup: number | null;
  concordant: number;
  discordant: number;
  /** Pairs inside groups tied in x or y (excluded from γ). */
  tied: number;
  groups: number;
  /** Groups contributing at least one untied pair (groups of one never do). */
  groupsWithPairs: number;
}

/**
 * Goodman–Kruskal γ of predicted against human scores, pairs formed inside each group only:
 * pooled Σ(C−D)/Σ(C+D) and the mean of per-group γ (null when no group has an untied pair).
 */
export function groupedGamma(groups: readonly GroupScores[]): GammaResult {
  let concordant = 0;
  let discordant = 0;
  let tied = 0;
  let perGroupSum = 0;
  let groupsWithPairs = 0;
  for (const g of groups) {
    const finite =
      g.x.length === g.y.length && g.x.every(Number.isFinite) && g.y.every(Number.isFinite);
    if (!finite || g.x.length < 2) continue;
    const c = pairCounts(g.x, g.y);
    concordant += c.concordant;
    discordant += c.discordant;
    tied += c.tiedX + c.tiedY - c.tiedXY;
    const untied = c.concordant + c.discordant;
    if (untied > 0) {
      groupsWithPairs++;
      perGroupSum += (c.concordant - c.discordant) / untied;
    }
  }
  const untied = concordant + discordant;
  return {
    pooled: untied > 0 ? (concordant - discordant) / untied : null,
    meanPerGroup: groupsWithPairs > 0 ? perGroupSum / groupsWithPairs : null,
    concordant,
    discordant,
    tied,
    groups: groups.length,
    groupsWithPairs,
  };
}
