// The reward interval from item distributions and weights: hand-computed small cases, a point
// for greedy items, the clamp of a penalty item, and coverage on a synthetic set where the
// "true" item scores are drawn from the very distributions the judge reported (so a level-0.9
// interval must hold the true reward 90 % of the time, up to sampling noise; width reported).
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../test/support/schema-random.ts';
import type { CriterionLeaf } from '../core/criteria.ts';
import { rewardInterval } from './interval.ts';
import { group, leaf, nodeValue } from './tree.ts';

const item = (key: string, weight: number, dist?: [number, number][]): CriterionLeaf =>
  leaf({
    key,
    axis: 'visual',
    weight,
    score: dist ? dist.reduce((s, [v, p]) => s + v * p, 0) : 0.5,
    ...(dist ? { distribution: dist.map(([score, p]) => ({ score, p })) } : {}),
  });

describe('rewardInterval', () => {
  it('convolves two equal-weight coin items: {0: ¼, ½: ½, 1: ¼}', () => {
    const t = group('r', 1, [
      item('a', 1, [
        [0, 0.5],
        [1, 0.5],
      ]),
      item('b', 1, [
        [0, 0.5],
        [1, 0.5],
      ]),
    ]);
    expect(rewardInterval(t, 0.5)).toEqual([0.5, 0.5]);
    expect(rewardInterval(t, 0.9)).toEqual([0, 1]);
  });
  it('weighs items: 3·a + 1·b over 4', () => {
    const t = group('r', 1, [
      item('a', 3, [
        [0, 0.1],
        [1, 0.9],
      ]),
      item('b', 1, [
        [0, 0.5],
        [1, 0.5],
      ]),
    ]);
    // Values 0 (.05), .25 (.05), .75 (.45), 1 (.45): the central 80 % is [.75, 1].
    expect(rewardInterval(t, 0.8)).toEqual([0.75, 1]);
  });
  it('is a point when every item was read greedily', () => {
    const t = group('r', 1, [item('a', 1), item('b', 2)]);
    expect(rewardInterval(t, 0.9)).toEqual([0.5, 0.5]);
  });
  it('clamps like the tree: a penalty item cannot take the interval below 0', () => {
    const t = group('r', 1, [
      item('a', 1, [
        [0, 0.5],
        [0.2, 0.5],
      ]),
      item('p', -2, [
        [0, 0.5],
        [1, 0.5],
      ]),
    ]);
    const [lo, hi] = rewardInterval(t, 0.99)!;
    expect(lo).toBe(0);
    expect(hi).toBeCloseTo(0.2, 12);
  });
  it('covers the true reward at its level 0.9 (to 3σ) on 200 synthetic pictures × 25 true draws (width reported)', () => {
    const rng = seededRng(37);
    const weights = [5, 5, 5, 4, 5, 5];
    let covered = 0;
    const widths: number[] = [];
    const N = 200;
    const DRAWS = 25;
    for (let n = 0; n < N; n++) {
      const dists = weights.map(() => {
        const raw = Array.from({ length: 10 }, () => rng() ** 3);
        const z = raw.reduce((a, b) => a + b, 0);
        return raw.map((p, d) => [d / 9, p / z] as [number, number]);
      });
      const t = group(
        'r',
        1,
        weights.map((w, i) => item(`k${i}`, w, dists[i])),
      );
      const [lo, hi] = rewardInterval(t, 0.9)!;
      // The truth, 25 times: each item's score drawn from its distribution.
      const draw = (d: [number, number][]) => {
        const u = rng();
        let c = 0;
        for (const [x, p] of d) {
          c += p;
          if (c > u) return x;
        }
        return d[d.length - 1]![0];
      };
      for (let k = 0; k < DRAWS; k++) {
        const truth = group(
          'r',
          1,
          weights.map((w, i) =>
            leaf({ key: `k${i}`, axis: 'visual', weight: w, score: draw(dists[i]!) }),
          ),
        );
        const r = nodeValue(truth)!;
        if (r >= lo - 1e-9 && r <= hi + 1e-9) covered++;
      }
      widths.push(hi - lo);
    }
    widths.sort((a, b) => a - b);
    const coverage = covered / (N * DRAWS);
    const median = widths[N / 2]!;
    console.log(
      `interval level 0.9: coverage ${coverage.toFixed(3)}, median width ${median.toFixed(3)}`,
    );
    // The interval is exact under this model, so coverage is ≈ 0.9 up to sampling noise
    // (σ = √(0.9·0.1/5000) ≈ 0.0042): three σ below the level fails it.
    expect(coverage).toBeGreaterThanOrEqual(0.9 - 3 * Math.sqrt(0.09 / (N * DRAWS)));
    expect(median).toBeGreaterThan(0);
    expect(median).toBeLessThan(0.6);
  });
});
