// Turning a criterion tree (or a rule that stops before one) into a reward's verdict. Every
// reward kind ends here, so status, reason and the flat `criteria` view mean the same thing
// for all of them.
import type { CriterionGroup } from '../core/criteria.ts';
import type { RewardKind, RewardResult } from '../core/record.ts';
import { statusOf, type UnscoreableReason } from '../core/status.ts';
import { emptyUsage, type Usage } from '../core/usage.ts';
import { rewardComponents, zeroComponents } from './components.ts';
import { rewardInterval } from './interval.ts';
import { evaluateTree, flattenLeaves } from './tree.ts';

export interface ResultExtras {
  cached?: boolean;
  usage?: Usage;
  /** Overrides the tree's own message when the value is null (e.g. the judge's error text). */
  message?: string;
  /** Level of the reward's interval (default 0.9). */
  intervalLevel?: number;
}

/** Level of a reward's interval when nobody says (JudgingStrategy's default). */
export const DEFAULT_INTERVAL_LEVEL = 0.9;

/** The verdict a tree gives: its value when it has one, else 0 with the tree's status and reason. */
export function treeResult(
  kind: RewardKind,
  tree: CriterionGroup,
  extras: ResultExtras = {},
): RewardResult {
  const outcome = evaluateTree(tree);
  const base = {
    reward_kind: kind,
    criteria: flattenLeaves(tree),
    tree,
    cached: extras.cached ?? false,
    usage: extras.usage ?? emptyUsage(),
  };
  if (outcome.value !== null) {
    const components = rewardComponents(kind, tree, outcome.value);
    const level = extras.intervalLevel ?? DEFAULT_INTERVAL_LEVEL;
    const interval = rewardInterval(tree, level);
    return {
      ...base,
      reward: outcome.value,
      status: 'ok',
      components,
      ...(interval ? { interval, interval_level: level } : {}),
    };
  }
  return {
    ...base,
    reward: 0,
    components: zeroComponents(kind),
    status: outcome.status,
    ...(outcome.reason ? { reason: outcome.reason } : {}),
    message: extras.message ?? outcome.message ?? 'no reward',
  };
}

/** A verdict without a tree: a rule-based zero (or grader fault) found before any criterion. */
export function reasonResult(
  kind: RewardKind,
  reason: UnscoreableReason,
  message: string,
  usage: Usage = emptyUsage(),
): RewardResult {
  return {
    reward_kind: kind,
    reward: 0,
    status: statusOf(reason),
    reason,
    message,
    criteria: [],
    tree: null,
    components: zeroComponents(kind),
    cached: false,
    usage,
  };
}
