// Reward components for GDPO-style trainers (verl's gdpo estimator, TRL's multi-reward GRPO,
// NeMo RL's reward_components): the top of a reward's criterion tree, split into a FIXED key
// set per reward kind, each value the weighted contribution of its part, so that the values
// sum to the reward. The table is the shared contract with the Python package
// (integrations/python mirrors it; GET /v1/components serves it). Rules (also in
// docs/rubrics-and-judging.md, "Reward components"):
//  - A part's raw contribution is w·v / Σ_{w>0} w at the root of the tree (the tree's own
//    arithmetic, src/reward/tree.ts). RULER, universal and Rubric-S sum their items by axis;
//    the hybrid, prisma and direct trees map their root's children by key.
//  - What changes the reward without being one of the keys — Rubric-S's text penalty, the
//    clamp to [0,1], an item of an axis outside the key set — is folded in by scaling every
//    component by one factor: reward / Σ raw. So a penalty lowers each part in proportion.
//  - If no keyed part contributed but the reward is positive (a custom rubric with only
//    off-table axes), the whole reward goes to the kind's first key.
//  - No measured reward (unscoreable, grader fault, no_rubric): every key, value 0.
//  - The largest component absorbs the last rounding error, so the values, summed in key
//    order, give the reward to the last bit in practice (a test checks 1e-12 on every kind).
import { type CriterionGroup, type CriterionNode, isGroup } from '../core/criteria.ts';
import type { RewardKind } from '../core/record.ts';
import { nodeValue } from './tree.ts';

/**
 * The component keys of every reward kind, in a fixed order (the GDPO contract; keep in step
 * with integrations/python's mirror).
 */
export const REWARD_COMPONENT_KEYS: Readonly<Record<RewardKind, readonly string[]>> = Object.freeze(
  {
    ruler: Object.freeze(['semantic', 'visual', 'style']),
    universal: Object.freeze(['semantic', 'visual', 'style']),
    'rubric-s': Object.freeze(['semantic', 'visual']),
    hybrid: Object.freeze(['think', 'render', 'semantic', 'aesthetic']),
    prisma: Object.freeze(['code', 'vision', 'holistic']),
    direct: Object.freeze(['direct']),
  },
);

/** Reward components: the kind's keys, each a weighted contribution; they sum to the reward. */
export type RewardComponents = Record<string, number>;

/** Every key of the kind with value 0 (a record without a measured reward). */
export function zeroComponents(kind: RewardKind): RewardComponents {
  return Object.fromEntries(REWARD_COMPONENT_KEYS[kind].map((k) => [k, 0]));
}

// Which component a child of the root feeds: judged rubrics split by their leaves' axis, the
// other kinds by the child's key (hybrid terms, prisma's code/vision/holistic, direct's one).
type PartOf = (child: CriterionNode) => string;
const byAxis: PartOf = (child) => (isGroup(child) ? child.key : child.axis);
const PART_OF: Record<RewardKind, PartOf> = {
  ruler: byAxis,
  universal: byAxis,
  'rubric-s': byAxis,
  hybrid: (child) => child.key,
  prisma: (child) => child.key,
  direct: () => 'direct',
};

/**
 * The components of a reward computed from `tree` (see the rules above). `reward` is the
 * tree's value; pass null (or no tree) when the reward was not measured, to get all zeros.
 * @example
 * ```ts
 * const tree = group('ruler', 1, [
 *   leaf({ key: 'a', axis: 'semantic', weight: 5, score: 1 }),
 *   leaf({ key: 'b', axis: 'visual', weight: 5, score: 0.5 }),
 * ]);
 * rewardComponents('ruler', tree, 0.75); // { semantic: 0.5, visual: 0.25, style: 0 }
 * ```
 */
export function rewardComponents(
  kind: RewardKind,
  tree: CriterionGroup | null | undefined,
  reward: number | null,
): RewardComponents {
  const out = zeroComponents(kind);
  if (!tree || reward === null || !Number.isFinite(reward) || reward === 0) return out;
  const keys = REWARD_COMPONENT_KEYS[kind];
  let den = 0;
  for (const child of tree.children) {
    if (Number.isFinite(child.weight) && child.weight > 0) den += child.weight;
  }
  if (den === 0) return out;
  let raw = 0;
  for (const child of tree.children) {
    const w = child.weight;
    if (w <= 0 || !Number.isFinite(w)) continue; // penalties and switched-off parts: folded
    const v = nodeValue(child);
    const part = PART_OF[kind](child);
    if (v === null || !keys.includes(part)) continue;
    out[part] = (out[part] ?? 0) + (w * v) / den;
    raw += (w * v) / den;
  }
  if (raw <= 0) {
    out[keys[0]!] = reward;
    return out;
  }
  const scale = reward / raw;
  for (const k of keys) out[k] = out[k]! * scale;
  absorbRounding(out, keys, reward);
  return out;
}

/** Moves the float residue of Σ components − reward into the largest component. */
function absorbRounding(out: RewardComponents, keys: readonly string[], reward: number): void {
  let largest = keys[0]!;
  for (const k of keys) if (out[k]! > out[largest]!) largest = k;
  let sum = 0;
  for (const k of keys) if (k !== largest) sum += out[k]!;
  out[largest] = reward - sum;
}

/** Σ of the components in key order (what a trainer recombines). */
export function sumComponents(kind: RewardKind, components: RewardComponents): number {
  let sum = 0;
  for (const k of REWARD_COMPONENT_KEYS[kind]) sum += components[k] ?? 0;
  return sum;
}
