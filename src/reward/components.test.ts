// Reward components recombine to the reward on every kind: trees built by the same builders
// the reward kinds use (preset items for RULER/universal/Rubric-S, hybridResult, elasticTree,
// the direct leaf), through treeResult, with seeded random scores; and every key is present
// with value 0 on unscoreable and grader-fault verdicts.
import { describe, expect, it } from 'vitest';
import type { CriterionLeaf } from '../core/criteria.ts';
import { REWARD_KINDS, type RewardKind, type RewardResult } from '../core/record.ts';
import type { Inspection } from '../inspect/types.ts';
import { getPreset } from '../rubric/presets.ts';
import { universalItems } from '../rubric/universal.ts';
import { REWARD_COMPONENT_KEYS, rewardComponents, sumComponents } from './components.ts';
import { elasticTree } from './elastic.ts';
import { DEFAULT_FAMILY_LAMBDAS } from './families.ts';
import { hybridResult } from './hybrid.ts';
import { reasonResult, treeResult } from './result.ts';
import { group, leaf } from './tree.ts';

// A small seeded generator, so a failure names a reproducible case.
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const judged = (kind: RewardKind, items: { key: string; axis: string; weight: number }[]) => {
  return (r: () => number) =>
    treeResult(
      kind,
      group(
        kind,
        1,
        items.map((it) => leaf({ ...it, score: Math.round(r() * 10) / 10, source: 'judge' })),
      ),
    );
};

// Only the fields hybridResult reads: whether it rendered and the DwT report.
function inspection(rendered: boolean, stages: string[]): Inspection {
  return {
    artifact: { found: true, dwt: { valid: false, stages, ordered: true, beforeSvg: true } },
    render: rendered ? { ok: true } : { ok: false, error: { code: 'render_error', message: 'x' } },
  } as unknown as Inspection;
}

const prismaItems = (prefix: string, axis: string, n: number, r: () => number): CriterionLeaf[] =>
  Array.from({ length: n }, (_, i) =>
    leaf({ key: `${prefix}${i}`, axis, weight: 1 + (i % 3), score: r(), source: 'judge' }),
  );

const BUILDERS: Record<RewardKind, (r: () => number) => RewardResult> = {
  ruler: judged('ruler', getPreset('ruler').items),
  universal: judged('universal', universalItems()),
  // Includes the −2 text penalty: folded into the two components by one scale factor.
  'rubric-s': judged('rubric-s', getPreset('rubric-s').items),
  hybrid: (r) =>
    hybridResult(
      inspection(r() > 0.2, ['Concept Sketching', 'Canvas Planning'].slice(0, Math.floor(r() * 3))),
      { lambdas: { aesthetic: r() > 0.5 ? 0.2 : 0 } },
      {
        semantic: { ok: true, value: r() } as never,
        aesthetic: { ok: true, value: r() } as never,
      },
    ),
  prisma: (r) => {
    const family = (['chart', 'svg', 'webui', 'diagram'] as const)[Math.floor(r() * 4)]!;
    const l = DEFAULT_FAMILY_LAMBDAS[family]!;
    const holistic = leaf({ key: 'holistic', axis: 'holistic', weight: 1, score: r() });
    const tree = elasticTree(
      { code: prismaItems('c', 'code', 3, r), vision: prismaItems('v', 'visual', 4, r), holistic },
      l,
    );
    return treeResult('prisma', tree);
  },
  direct: (r) =>
    treeResult(
      'direct',
      group('direct', 1, [leaf({ key: 'overall', axis: 'holistic', weight: 1, score: r() })]),
    ),
};

describe('reward components', () => {
  for (const kind of REWARD_KINDS) {
    it(`${kind}: the fixed keys, summing to the reward on 200 random trees`, () => {
      const r = lcg(kind.length * 7919);
      let nonZeroParts = 0;
      for (let n = 0; n < 200; n++) {
        const res = BUILDERS[kind](r);
        expect(Object.keys(res.components)).toEqual([...REWARD_COMPONENT_KEYS[kind]]);
        expect(res.status).toBe('ok');
        expect(Math.abs(sumComponents(kind, res.components) - res.reward)).toBeLessThanOrEqual(
          1e-12,
        );
        for (const v of Object.values(res.components)) expect(v).toBeGreaterThanOrEqual(0);
        nonZeroParts += Object.values(res.components).filter((v) => v > 0).length;
      }
      // The split is real: more than one key carries reward across the cases (but direct).
      expect(nonZeroParts).toBeGreaterThan(kind === 'direct' ? 150 : 250);
    });
  }

  it('ruler: each axis gets its weighted share', () => {
    const tree = group('ruler', 1, [
      leaf({ key: 'a', axis: 'semantic', weight: 5, score: 1 }),
      leaf({ key: 'b', axis: 'visual', weight: 4, score: 0.5 }),
      leaf({ key: 'c', axis: 'style', weight: 1, score: 0 }),
    ]);
    const res = treeResult('ruler', tree);
    expect(res.reward).toBeCloseTo(0.7, 12);
    expect(res.components.semantic).toBeCloseTo(0.5, 12);
    expect(res.components.visual).toBeCloseTo(0.2, 12);
    expect(res.components.style).toBe(0);
  });

  it('rubric-s: the penalty scales both parts down in proportion', () => {
    const tree = group('rubric-s', 1, [
      leaf({ key: 'a', axis: 'semantic', weight: 6, score: 1 }),
      leaf({ key: 'b', axis: 'visual', weight: 4, score: 1 }),
      leaf({ key: 'p', axis: 'penalty', weight: -2, score: 1 }),
    ]);
    const res = treeResult('rubric-s', tree);
    expect(res.reward).toBeCloseTo(0.8, 12);
    expect(res.components.semantic).toBeCloseTo(0.48, 12);
    expect(res.components.visual).toBeCloseTo(0.32, 12);
  });

  it('prisma: λ-weighted code, vision and holistic parts', () => {
    const one = (key: string, score: number) => leaf({ key, axis: 'code', weight: 1, score });
    const tree = elasticTree(
      {
        code: [one('c', 1)],
        vision: [one('v', 0.5)],
        holistic: leaf({ key: 'holistic', axis: 'holistic', weight: 1, score: 0.25 }),
      },
      { code: 0.3, vision: 0.5, holistic: 0.2 },
    );
    const res = treeResult('prisma', tree);
    expect(res.components).toEqual({
      code: expect.closeTo(0.3, 12),
      vision: expect.closeTo(0.25, 12),
      holistic: expect.closeTo(0.05, 12),
    });
  });

  it('every key, value 0, on unscoreable and grader-fault verdicts', () => {
    for (const kind of REWARD_KINDS) {
      for (const res of [
        reasonResult(kind, 'no_svg', 'no SVG'),
        reasonResult(kind, 'judge_error', 'judge down'),
        reasonResult(kind, 'no_rubric', 'none'),
        treeResult(
          kind,
          group(kind, 1, [
            leaf({ key: 'x', axis: 'semantic', weight: 1, score: null, source: 'judge' }),
          ]),
        ),
      ]) {
        expect(res.reward).toBe(0);
        expect(res.components).toEqual(
          Object.fromEntries(REWARD_COMPONENT_KEYS[kind].map((k) => [k, 0])),
        );
      }
    }
  });

  it('a tree with only off-table parts puts the reward on the first key', () => {
    const tree = group('rubric-s', 1, [leaf({ key: 's', axis: 'style', weight: 1, score: 0.6 })]);
    expect(rewardComponents('rubric-s', tree, 0.6)).toEqual({ semantic: 0.6, visual: 0 });
  });
});
