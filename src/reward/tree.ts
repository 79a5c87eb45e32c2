// The arithmetic of a criterion tree: one set of rules for every reward (RULER, universal,
// Rubric-S, Reason-SVG's hybrid, PrismaForge's elastic scorer). docs/rubrics-and-judging.md
// ("The criterion tree") states the same rules for readers.
//
//  - A leaf's value is its score in [0,1]; a score that is not a finite number is null.
//  - A group's value is Σ w·v / Σ_{w>0} w over its children, clamped to [0,1]. A negative
//    weight is a penalty (Rubric-S): it subtracts from the numerator but does not enter the
//    denominator, so a perfect picture with no penalised trait still scores 1.
//  - A child of weight 0 is switched off: it is ignored, scored or not (a λ set to 0).
//  - A null child of non-zero weight makes its group null: a missing score is never a 0.
//  - A group with no child of positive weight is null (there is nothing to weigh).
// The tree's status follows from its value: a number is `ok`; null is a grader fault or a
// rule-based zero, as the first null leaf's `reason` says (a leaf with no reason is blamed
// on its source: judge → judge_error, scorer → scorer_error, check → infra_error).
import {
  type CriterionGroup,
  type CriterionLeaf,
  type CriterionNode,
  type CriterionScore,
  isGroup,
} from '../core/criteria.ts';
import { type Status, statusOf, type UnscoreableReason } from '../core/status.ts';

/** A tree's reward with its status; the value is null unless the status is `ok`. */
export interface TreeOutcome {
  /** The reward; null when it cannot be computed (see status and reason). */
  value: number | null;
  status: Status;
  reason?: UnscoreableReason;
  message?: string;
}

/** A leaf node of the criterion tree. */
export function leaf(l: Omit<CriterionLeaf, 'kind'>): CriterionLeaf {
  return { kind: 'leaf', ...l };
}

/** A group node: its value is the weighted mean of its children's. */
export function group(key: string, weight: number, children: CriterionNode[]): CriterionGroup {
  return { kind: 'group', key, weight, children };
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** The value of any node under the rules above. */
export function nodeValue(node: CriterionNode): number | null {
  if (!isGroup(node)) {
    return typeof node.score === 'number' && Number.isFinite(node.score) ? node.score : null;
  }
  let num = 0;
  let den = 0;
  for (const child of node.children) {
    const w = child.weight;
    if (w === 0 || !Number.isFinite(w)) continue;
    const v = nodeValue(child);
    if (v === null) return null;
    num += w * v;
    if (w > 0) den += w;
  }
  return den === 0 ? null : clamp01(num / den);
}

/** The first leaf that makes the tree null (depth first, weight-0 branches skipped). */
function firstNullLeaf(node: CriterionNode): CriterionLeaf | null {
  if (!isGroup(node)) return nodeValue(node) === null ? node : null;
  for (const child of node.children) {
    if (child.weight === 0) continue;
    if (nodeValue(child) !== null) continue;
    const hit = firstNullLeaf(child);
    if (hit) return hit;
  }
  return null;
}

const BLAME: Record<string, UnscoreableReason> = {
  judge: 'judge_error',
  code_judge: 'judge_error',
  scorer: 'scorer_error',
  check: 'infra_error',
};

/**
 * A tree's value and status, with one set of rules.
 * @example
 * ```ts
 * const a = leaf({ key: 'a', axis: 'visual', weight: 1, score: 0.5 });
 * const s = evaluateTree(group('root', 1, [a])); // { value: 0.5, status: 'ok' }
 * ```
 */
export function evaluateTree(root: CriterionNode): TreeOutcome {
  const value = nodeValue(root);
  if (value !== null) return { value, status: 'ok' };
  const culprit = firstNullLeaf(root);
  if (!culprit) {
    return {
      value: null,
      status: 'unscoreable',
      reason: 'no_rubric',
      message: `criterion group "${root.key}" has no criterion of positive weight`,
    };
  }
  const reason = culprit.reason ?? BLAME[culprit.source ?? 'check'] ?? 'infra_error';
  const why = culprit.rationale ? `: ${culprit.rationale}` : '';
  return {
    value: null,
    status: statusOf(reason),
    reason,
    message: `criterion "${culprit.key}" has no score${why}`,
  };
}

/**
 * The flat view of a tree's leaves (trainers' extras, per-criterion means in reports). Keys of
 * leaves below a nested group are prefixed with the group path ("code.axis_range"); weights
 * are the leaves' own, within their group.
 */
export function flattenLeaves(root: CriterionNode): CriterionScore[] {
  const out: CriterionScore[] = [];
  const walk = (node: CriterionNode, path: string[]) => {
    if (isGroup(node)) {
      for (const child of node.children) walk(child, node === root ? path : [...path, node.key]);
      return;
    }
    const { kind: _kind, ...rest } = node;
    out.push(path.length ? { ...rest, key: [...path, node.key].join('.') } : rest);
  };
  walk(root, []);
  return out;
}
