import { describe, expect, it } from 'vitest';
import { kendallTauB, pairCounts } from './kendall.ts';
import { seededRandom } from './prng.ts';

/** The definition, pair by pair, to check the O(n log n) counting against. */
function naive(x: number[], y: number[]) {
  let c = 0;
  let d = 0;
  let tx = 0;
  let ty = 0;
  let txy = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const sx = Math.sign(x[j]! - x[i]!);
      const sy = Math.sign(y[j]! - y[i]!);
      if (sx === 0) tx++;
      if (sy === 0) ty++;
      if (sx === 0 && sy === 0) txy++;
      if (sx !== 0 && sy !== 0) sx === sy ? c++ : d++;
    }
  }
  return { n: x.length, concordant: c, discordant: d, tiedX: tx, tiedY: ty, tiedXY: txy };
}

describe('kendallTauB', () => {
  it('matches a hand count without ties', () => {
    // y in x order: 3 1 2 5 4. Discordant pairs: (3,1) (3,2) (5,4); the other 7 concordant.
    // τ = (7 − 3) / 10 = 0.4.
    expect(pairCounts([1, 2, 3, 4, 5], [3, 1, 2, 5, 4])).toMatchObject({
      concordant: 7,
      discordant: 3,
    });
    expect(kendallTauB([1, 2, 3, 4, 5], [3, 1, 2, 5, 4])).toBeCloseTo(0.4, 12);
  });

  it('applies the τ-b tie correction', () => {
    // Pairs: (1,2) tied in x; (2,3) tied in y; the other four concordant.
    // n0 = 6, n1 = 1, n2 = 1 → τb = 4 / √(5·5) = 0.8 (scipy.stats.kendalltau gives 0.8 too).
    expect(kendallTauB([1, 1, 2, 3], [1, 2, 2, 3])).toBeCloseTo(0.8, 12);
  });

  it('handles pairs tied in both scores', () => {
    // x = 1 1 2 2, y = 5 5 6 4: (1,2) tied in both; (3,4) tied in x; (1,3) (2,3) C; (1,4) (2,4) D.
    // C − D = 0 → τb = 0; n1 = 2, n2 = 1, n3 = 1.
    expect(pairCounts([1, 1, 2, 2], [5, 5, 6, 4])).toEqual({
      n: 4,
      concordant: 2,
      discordant: 2,
      tiedX: 2,
      tiedY: 1,
      tiedXY: 1,
    });
    expect(kendallTauB([1, 1, 2, 2], [5, 5, 6, 4])).toBe(0);
  });

  it('agrees with the pair-by-pair definition on random tied data', () => {
    const random = seededRandom(7);
    for (let trial = 0; trial < 40; trial++) {
      const n = 2 + Math.floor(random() * 60);
      // Few distinct values so ties are common on both sides.
      const x = Array.from({ length: n }, () => Math.floor(random() * 6));
      const y = Array.from({ length: n }, () => Math.floor(random() * 4));
      expect(pairCounts(x, y)).toEqual(naive(x, y));
    }
  });

  it('is ±1 for perfectly (anti-)ordered data and null when undefined', () => {
    expect(kendallTauB([1, 2, 3], [10, 20, 30])).toBe(1);
    expect(kendallTauB([1, 2, 3], [30, 20, 10])).toBe(-1);
    expect(kendallTauB([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(kendallTauB([4], [2])).toBeNull();
    expect(kendallTauB([], [])).toBeNull();
    expect(kendallTauB([1, 2], [1])).toBeNull();
    expect(kendallTauB([1, Number.POSITIVE_INFINITY], [1, 2])).toBeNull();
  });

  it('counts ten thousand items quickly (O(n log n))', () => {
    const random = seededRandom(3);
    const x = Array.from({ length: 10_000 }, () => random());
    const y = x.map((v) => v + random() * 0.5);
    const t0 = performance.now();
    const tau = kendallTauB(x, y)!;
    expect(performance.now() - t0).toBeLessThan(500);
    expect(tau).toBeGreaterThan(0.5);
  });
});
