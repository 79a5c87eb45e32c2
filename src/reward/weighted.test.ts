// Exact reward arithmetic, hand-computed.
import { describe, expect, it } from 'vitest';
import { weightedReward } from './weighted.ts';

const ruler = (s: number[]) =>
  [
    ['semantic', 5],
    ['semantic', 5],
    ['visual', 5],
    ['visual', 4],
    ['style', 5],
    ['style', 5],
  ].map(([axis, weight], i) => ({ axis: axis as string, weight: weight as number, score: s[i]! }));

describe('weightedReward', () => {
  it('is Σ w·s / Σ w with RULER weights 5,5,5,4,5,5', () => {
    // 5·0.9 + 5·0.8 + 5·0.7 + 4·0.5 + 5·0.6 + 5·0.4 = 4.5+4+3.5+2+3+2 = 19; Σw = 29
    expect(weightedReward(ruler([0.9, 0.8, 0.7, 0.5, 0.6, 0.4]))).toBeCloseTo(19 / 29, 12);
  });

  it('drops an axis from numerator and denominator', () => {
    // without visual: 4.5+4+3+2 = 13.5 over 20
    const c = ruler([0.9, 0.8, 0.7, 0.5, 0.6, 0.4]);
    expect(weightedReward(c, { dropAxis: 'visual' })).toBeCloseTo(13.5 / 20, 12);
    // without semantic: 3.5+2+3+2 = 10.5 over 19
    expect(weightedReward(c, { dropAxis: 'semantic' })).toBeCloseTo(10.5 / 19, 12);
    // without style: 4.5+4+3.5+2 = 14 over 19
    expect(weightedReward(c, { dropAxis: 'style' })).toBeCloseTo(14 / 19, 12);
  });

  it('subtracts a negative-weight penalty without growing the denominator, clamped to [0,1]', () => {
    const items = [
      { axis: 'semantic', weight: 5, score: 1 },
      { axis: 'semantic', weight: 5, score: 1 },
      { axis: 'semantic', weight: 5, score: 1 },
      { axis: 'visual', weight: 5, score: 1 },
      { axis: 'visual', weight: 4, score: 1 },
      { axis: 'penalty', weight: -2, score: 0 },
    ];
    expect(weightedReward(items)).toBe(1);
    items[5]!.score = 1; // (24 − 2) / 24
    expect(weightedReward(items)).toBeCloseTo(22 / 24, 12);
    for (const it of items) it.score = 0;
    items[5]!.score = 1; // −2/24 clamps to 0
    expect(weightedReward(items)).toBe(0);
  });

  it('refuses a missing score instead of counting it as 0', () => {
    const c = ruler([1, 1, 1, 1, 1, 1]).map((x, i) => (i === 2 ? { ...x, score: null } : x));
    expect(weightedReward(c)).toBeNull();
    expect(weightedReward([])).toBeNull();
  });
});
