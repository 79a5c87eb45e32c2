import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CriterionNode } from '../core/criteria.ts';
import { evaluateTree, flattenLeaves, group, leaf, nodeValue } from './tree.ts';

const judged = (key: string, weight: number, score: number | null) =>
  leaf({ key, axis: 'x', weight, score, source: 'judge' });

// Arbitrary trees: leaves with scores in [0,1] (sometimes null), weights in [-3, 6].
const weightArb = fc.oneof(
  fc.double({ min: 0.01, max: 6, noNaN: true }),
  fc.constant(0),
  fc.double({ min: -3, max: -0.01, noNaN: true }),
);
const leafArb = fc
  .record({ w: weightArb, s: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { freq: 8 }) })
  .map(({ w, s }) => judged('k', w, s));
const { tree: treeArb } = fc.letrec<{ tree: CriterionNode }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafArb,
    fc
      .record({ w: weightArb, children: fc.array(tie('tree'), { minLength: 0, maxLength: 5 }) })
      .map(({ w, children }) => group('g', w, children)),
  ),
}));

describe('criterion tree arithmetic', () => {
  it('RULER: R = Σ w·s / Σ w over the six items', () => {
    const w = [5, 5, 5, 4, 5, 5];
    const s = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4];
    const tree = group(
      'ruler',
      1,
      w.map((wi, i) => judged(`i${i}`, wi, s[i]!)),
    );
    const expected = w.reduce((a, wi, i) => a + wi * s[i]!, 0) / 29;
    expect(evaluateTree(tree)).toEqual({ value: expected, status: 'ok' });
  });

  it("PrismaForge's worked example comes out exactly, and as the seed rounds it", () => {
    const tree = (f: number) =>
      group('prisma', 1, [
        group('code', 0.7, [judged('c1', 0.5, 1), judged('c2', 0.5, f)]),
        group('vision', 0.3, [judged('v1', 0.6, 1), judged('v2', 0.4, 0)]),
      ]);
    const exact = tree(2 / 3);
    expect(nodeValue(exact.children[0]!)).toBeCloseTo(5 / 6, 12);
    expect(nodeValue(exact.children[1]!)).toBeCloseTo(0.6, 12);
    expect(nodeValue(exact)).toBeCloseTo(0.7 * (5 / 6) + 0.3 * 0.6, 12);
    expect(nodeValue(exact)!.toFixed(4)).toBe('0.7633');
    // The seed rounds 2/3 to 0.67 before weighing and prints 0.7645.
    expect(nodeValue(tree(0.67))!.toFixed(4)).toBe('0.7645');
  });

  it('Rubric-S: a negative weight is a penalty outside the denominator, clamped at 0', () => {
    const items = [5, 5, 5, 4, 5].map((w, i) => judged(`i${i}`, w, 1));
    expect(nodeValue(group('s', 1, [...items, judged('text', -2, 0)]))).toBe(1);
    expect(nodeValue(group('s', 1, [...items, judged('text', -2, 1)]))).toBeCloseTo(22 / 24, 12);
    expect(nodeValue(group('s', 1, [judged('a', 1, 0), judged('p', -2, 1)]))).toBe(0);
  });

  it('a null leaf of non-zero weight makes the tree null and names the fault', () => {
    const t = group('r', 1, [
      judged('a', 5, 0.5),
      leaf({ key: 'b', axis: 'x', weight: 5, score: null, source: 'judge' }),
    ]);
    expect(evaluateTree(t)).toMatchObject({
      value: null,
      status: 'grader_error',
      reason: 'judge_error',
    });
    const s = group('h', 1, [
      leaf({ key: 'sem', axis: 'x', weight: 0.6, score: null, source: 'scorer' }),
    ]);
    expect(evaluateTree(s)).toMatchObject({ status: 'grader_error', reason: 'scorer_error' });
    const rule = group('h', 1, [
      leaf({ key: 'c', axis: 'x', weight: 1, score: null, source: 'check', reason: 'no_rubric' }),
    ]);
    expect(evaluateTree(rule)).toMatchObject({ status: 'unscoreable', reason: 'no_rubric' });
  });

  it('a weight-0 child is switched off, scored or not; an empty group is null', () => {
    const t = group('h', 1, [
      judged('a', 1, 0.4),
      leaf({ key: 'off', axis: 'x', weight: 0, score: null, source: 'scorer' }),
    ]);
    expect(nodeValue(t)).toBe(0.4);
    expect(evaluateTree(group('e', 1, []))).toMatchObject({ value: null, status: 'unscoreable' });
    expect(nodeValue(group('p', 1, [judged('pen', -2, 1)]))).toBeNull();
  });

  it('flattens nested leaves with their group path', () => {
    const t = group('prisma', 1, [group('code', 0.7, [judged('c1', 1, 1)]), judged('h', 0.3, 0.5)]);
    expect(flattenLeaves(t).map((c) => c.key)).toEqual(['code.c1', 'h']);
    expect(flattenLeaves(t)[0]).not.toHaveProperty('kind');
  });

  it('property: the value is null or in [0,1]', () => {
    fc.assert(
      fc.property(treeArb, (t) => {
        const v = nodeValue(t);
        return v === null || (v >= 0 && v <= 1);
      }),
    );
  });

  it('property: scaling a group’s weights by c > 0 keeps its value', () => {
    fc.assert(
      fc.property(
        fc.array(treeArb, { maxLength: 6 }),
        fc.double({ min: 0.1, max: 10, noNaN: true }),
        (children, c) => {
          const a = nodeValue(group('g', 1, children));
          const scaled = children.map((ch) => ({ ...ch, weight: ch.weight * c }));
          const b = nodeValue(group('g', 1, scaled));
          return a === null ? b === null : b !== null && Math.abs(a - b) < 1e-9;
        },
      ),
    );
  });

  it('property: a flat group is Σ w·s / Σ_{w>0} w clamped; wrapping in a group of one changes nothing', () => {
    fc.assert(
      fc.property(fc.array(leafArb, { maxLength: 8 }), (leaves) => {
        const live = leaves.filter((l) => l.weight !== 0);
        let expected: number | null;
        if (live.some((l) => l.score === null)) expected = null;
        else {
          const den = live.reduce((a, l) => a + Math.max(0, l.weight), 0);
          const num = live.reduce((a, l) => a + l.weight * (l.score as number), 0);
          expected = den === 0 ? null : Math.min(1, Math.max(0, num / den));
        }
        const flat = nodeValue(group('g', 1, leaves));
        const wrapped = nodeValue(group('outer', 1, [group('g', 3, leaves)]));
        const close = (x: number | null) =>
          expected === null ? x === null : x !== null && Math.abs(x - expected) < 1e-9;
        return close(flat) && close(wrapped);
      }),
    );
  });

  it('property: status is ok exactly when the value is a number', () => {
    fc.assert(
      fc.property(treeArb, (t) => {
        const out = evaluateTree(t);
        return (out.status === 'ok') === (out.value !== null);
      }),
    );
  });
});
