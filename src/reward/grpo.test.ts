// GRPO advantages as verl computes them (sample std, ε added to the std), and dispersion.
import { describe, expect, it } from 'vitest';
import { dispersion, groupAdvantages, sampleStd } from './grpo.ts';

describe('groupAdvantages', () => {
  it('matches a hand computation with the sample (n−1) standard deviation', () => {
    // rewards 0,0.5,1 → mean 0.5; sample var = (0.25+0+0.25)/2 = 0.25 → std 0.5
    const a = groupAdvantages([0, 0.5, 1]);
    expect(sampleStd([0, 0.5, 1])).toBeCloseTo(0.5, 15);
    expect(a[0]).toBeCloseTo(-0.5 / (0.5 + 1e-6), 12);
    expect(a[1]).toBe(0);
    expect(a[2]).toBeCloseTo(0.5 / (0.5 + 1e-6), 12);
  });

  it('gives zeros for a group with no spread, and R/(1+ε) for a group of one (verl)', () => {
    expect(groupAdvantages([0.7, 0.7, 0.7, 0.7])).toEqual([0, 0, 0, 0]);
    expect(groupAdvantages([0.8])[0]).toBeCloseTo(0.8 / (1 + 1e-6), 12);
    expect(groupAdvantages([])).toEqual([]);
  });

  it('uses the given epsilon', () => {
    const a = groupAdvantages([0, 1], 0.5);
    // mean 0.5, sample std sqrt(0.5) ≈ 0.70711
    expect(a[1]).toBeCloseTo(0.5 / (Math.SQRT1_2 + 0.5), 12);
  });
});

describe('dispersion', () => {
  it('is the population variance mean((R−mean)²)', () => {
    // G = 8 rewards; mean 0.5; squared deviations sum = 4·0.25 + 4·0 = 1 → U = 1/8
    expect(dispersion([0, 1, 0.5, 0.5, 0, 1, 0.5, 0.5])).toBeCloseTo(0.125, 15);
    expect(dispersion([])).toBe(0);
    expect(dispersion([0.3])).toBe(0);
  });
});
