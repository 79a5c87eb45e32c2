import { describe, expect, it } from 'vitest';
import { groupedGamma } from './gamma.ts';

describe('groupedGamma', () => {
  it('pools concordant and discordant pairs over groups, ties and singletons excluded', () => {
    const result = groupedGamma([
      // (0.9,80)-(0.5,60) C; (0.9,80)-(0.1,70) C; (0.5,60)-(0.1,70) D → C=2, D=1, γ=1/3
      { x: [0.9, 0.5, 0.1], y: [80, 60, 70] },
      // first pair tied in x (excluded); (0.2,10)-(0.8,20) C; (0.2,30)-(0.8,20) D → γ=0
      { x: [0.2, 0.2, 0.8], y: [10, 30, 20] },
      // a group of one: no pairs
      { x: [0.4], y: [55] },
      // one pair, tied in y: no untied pairs
      { x: [0.3, 0.6], y: [50, 50] },
    ]);
    // pooled = ((2−1) + (1−1)) / ((2+1) + (1+1)) = 1/5; mean of per-group γ = (1/3 + 0)/2.
    expect(result.pooled).toBeCloseTo(0.2, 12);
    expect(result.meanPerGroup).toBeCloseTo(1 / 6, 12);
    expect(result).toMatchObject({
      concordant: 3,
      discordant: 2,
      tied: 2,
      groups: 4,
      groupsWithPairs: 2,
    });
  });

  it('matches a hand-worked 2×3 contingency table (one group)', () => {
    // Counts, rows x = 1,2; columns y = 1,2,3:   x=1: 10  5  5    x=2: 2  8  10
    // C = 10·(8+10) + 5·10 = 230; D = 5·(2+8) + 5·2 = 60; γ = (230−60)/(230+60) = 17/29.
    const table = [
      [1, 1, 10],
      [1, 2, 5],
      [1, 3, 5],
      [2, 1, 2],
      [2, 2, 8],
      [2, 3, 10],
    ];
    const x: number[] = [];
    const y: number[] = [];
    for (const [xi, yi, count] of table) {
      for (let k = 0; k < count!; k++) {
        x.push(xi!);
        y.push(yi!);
      }
    }
    const r = groupedGamma([{ x, y }]);
    expect(r.concordant).toBe(230);
    expect(r.discordant).toBe(60);
    expect(r.pooled).toBeCloseTo(17 / 29, 12);
    expect(r.meanPerGroup).toBeCloseTo(17 / 29, 12);
  });

  it('is 1 when every group is ordered the same way, −1 when reversed', () => {
    const same = groupedGamma([
      { x: [1, 2, 3], y: [10, 20, 30] },
      { x: [0.1, 0.9], y: [5, 6] },
    ]);
    expect(same.pooled).toBe(1);
    expect(same.meanPerGroup).toBe(1);
    const reversed = groupedGamma([{ x: [1, 2, 3], y: [3, 2, 1] }]);
    expect(reversed.pooled).toBe(-1);
  });

  it('ignores order across groups: only pairs inside a group count', () => {
    // Across groups the scales disagree wildly, inside each group they agree.
    const r = groupedGamma([
      { x: [0.1, 0.2], y: [90, 95] },
      { x: [0.8, 0.9], y: [1, 2] },
    ]);
    expect(r.pooled).toBe(1);
  });

  it('is null with no untied pairs: empty input, singletons only, all ties', () => {
    expect(groupedGamma([]).pooled).toBeNull();
    expect(groupedGamma([]).meanPerGroup).toBeNull();
    expect(groupedGamma([{ x: [1], y: [1] }]).pooled).toBeNull();
    expect(groupedGamma([{ x: [1, 1, 1], y: [1, 2, 3] }]).pooled).toBeNull();
    expect(groupedGamma([{ x: [1, 2], y: [Number.NaN, 3] }]).groupsWithPairs).toBe(0);
  });
});
