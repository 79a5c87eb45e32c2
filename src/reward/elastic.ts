// The elastic rubric scorer on the criterion tree (src/reward/tree.ts): one group per rubric
// (code, vision), each the weighted mean Σ w·f / Σ w of its items, under a root group that
// weighs them with the task family's λ (and a holistic leaf when λh > 0). Nothing here is
// new arithmetic: the tree's rules give S = (λc·S_code + λv·S_vision + λh·S_h) / (λc+λv+λh),
// which is the paper's formula when the λ sum to 1, and a group whose λ is 0 is switched off.
import type { CriterionGroup, CriterionLeaf } from '../core/criteria.ts';
import type { ItemVerdict } from '../judge/prisma-schema.ts';
import type { PrismaItem } from '../rubric/prisma-schema.ts';
import type { Lambdas } from './families.ts';
import { group, leaf } from './tree.ts';

/** The leaf of one rubric item with its verdict (null when the judge gave none). */
export function itemLeaf(item: PrismaItem, v: ItemVerdict | undefined): CriterionLeaf {
  return leaf({
    key: item.key,
    axis: item.modality === 'code' ? 'code' : 'visual',
    weight: item.weight,
    score: v?.f ?? null,
    source: item.modality === 'code' ? 'code_judge' : 'judge',
    ...(v?.rationale ? { rationale: v.rationale } : {}),
    ...(v?.reason ? { reason: v.reason } : {}),
    // Expected scoring: the verdict's distribution, which the reward's interval is built from.
    ...(v?.distribution ? { distribution: v.distribution } : {}),
  });
}

/**
 * The leaves of PrismaForge's elastic score: code items, vision items, and the holistic
 * judgement when its λ is above 0.
 */
export interface ElasticParts {
  code: CriterionLeaf[];
  vision: CriterionLeaf[];
  /** The holistic judgement as a leaf (needed when λh > 0). */
  holistic?: CriterionLeaf;
}

/**
 * The sample's criterion tree: root "prisma" over code (λc), vision (λv), holistic (λh).
 * @example
 * ```ts
 * const item = (key: string, score: number) => leaf({ key, axis: 'code', weight: 1, score });
 * const parts = { code: [item('c1', 1)], vision: [item('v1', 0.5)] };
 * const tree = elasticTree(parts, lambdasFor(DEFAULT_FAMILY_LAMBDAS, 'chart'));
 * const s = evaluateTree(tree); // 0.7·1 + 0.3·0.5 = 0.85
 * ```
 */
export function elasticTree(parts: ElasticParts, l: Lambdas): CriterionGroup {
  const children: CriterionGroup['children'] = [
    group('code', l.code, parts.code),
    group('vision', l.vision, parts.vision),
  ];
  if (l.holistic > 0) {
    children.push(
      parts.holistic
        ? { ...parts.holistic, weight: l.holistic }
        : leaf({
            key: 'holistic',
            axis: 'holistic',
            weight: l.holistic,
            score: null,
            source: 'judge',
            reason: 'judge_error',
            rationale: 'no holistic judgement',
          }),
    );
  }
  return group('prisma', 1, children);
}
