import { describe, expect, it } from 'vitest';
import { pearson, spearman } from './correlation.ts';

describe('spearman', () => {
  it('matches the textbook IQ / TV-hours example (no ties)', () => {
    // Ranks of IQ:  106→7 100→4 86→1 101→5 99→3 103→6 97→2 113→10 112→9 110→8
    // Ranks of TV:    7→3  27→7  2→1  50→10 28→8 29→9 20→6  12→4   6→2  17→5
    // d = 4,-3,0,-5,-5,-3,-4,6,7,3; Σd² = 194; ρ = 1 − 6·194/(10·99) = −29/165.
    const iq = [106, 100, 86, 101, 99, 103, 97, 113, 112, 110];
    const tv = [7, 27, 2, 50, 28, 29, 20, 12, 6, 17];
    expect(spearman(iq, tv)).toBeCloseTo(-29 / 165, 12);
  });

  it('gives tied values their average rank', () => {
    // x ranks 1, 2.5, 2.5, 4; y ranks 1, 3, 2, 4; both means 2.5.
    // Σdx·dy = 2.25 + 0 + 0 + 2.25 = 4.5; Σdx² = 4.5; Σdy² = 5 → ρ = 4.5/√22.5 = 3/√10.
    expect(spearman([1, 2, 2, 3], [1, 3, 2, 4])).toBeCloseTo(3 / Math.sqrt(10), 12);
    // Same pairs listed in another order: the answer must not move.
    expect(spearman([2, 1, 3, 2], [2, 1, 4, 3])).toBeCloseTo(3 / Math.sqrt(10), 12);
  });

  it('is exactly ±1 for monotone data, however non-linear', () => {
    expect(spearman([1, 2, 3, 4, 5], [1, 4, 9, 16, 25])).toBeCloseTo(1, 14);
    expect(spearman([1, 2, 3, 4, 5], [50, 40, 30, 20, 10])).toBeCloseTo(-1, 14);
  });

  it('is null when undefined: constant side, fewer than two pairs, mismatched or non-finite', () => {
    expect(spearman([0.5, 0.5, 0.5], [1, 2, 3])).toBeNull();
    expect(spearman([1, 2, 3], [7, 7, 7])).toBeNull();
    expect(spearman([1], [2])).toBeNull();
    expect(spearman([], [])).toBeNull();
    expect(spearman([1, 2], [1, 2, 3])).toBeNull();
    expect(spearman([1, Number.NaN, 3], [1, 2, 3])).toBeNull();
  });
});

describe('pearson', () => {
  it('matches a hand-worked example', () => {
    // mean x = 3, mean y = 4; dx = −2,−1,0,1,2; dy = −2,0,1,0,1
    // Σdx·dy = 6, Σdx² = 10, Σdy² = 6 → r = 6/√60.
    expect(pearson([1, 2, 3, 4, 5], [2, 4, 5, 4, 5])).toBeCloseTo(6 / Math.sqrt(60), 12);
  });

  it('differs from spearman on monotone but non-linear data', () => {
    const r = pearson([1, 2, 3, 4, 5], [1, 4, 9, 16, 25]);
    expect(r).not.toBeNull();
    expect(r!).toBeLessThan(1);
    expect(r!).toBeGreaterThan(0.95);
  });

  it('stays within [−1, 1] and is null for constant input', () => {
    // Two points always lie on a line; floating error may land a hair below 1, never above.
    const two = pearson([1, 2], [3, 4])!;
    expect(two).toBeCloseTo(1, 14);
    expect(two).toBeLessThanOrEqual(1);
    expect(pearson([2, 2, 2], [1, 5, 9])).toBeNull();
  });
});
