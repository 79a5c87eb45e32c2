// The Bradley–Terry fit: finite with a unanimous winner, 0.5 for all under ties, order of the
// comparisons irrelevant, rewards averaging 0.5, and the MAP optimum where the gradient of
// the log posterior vanishes (checked by hand for two rollouts).
import { describe, expect, it } from 'vitest';
import { BT_PRIOR_SD, type Comparison, fitBradleyTerry } from './bradley-terry.ts';

describe('fitBradleyTerry', () => {
  it('gives finite strengths when one rollout wins every comparison', () => {
    const comps: Comparison[] = [
      { i: 0, j: 1, score: 1 },
      { i: 1, j: 0, score: 0 },
      { i: 0, j: 2, score: 1 },
      { i: 2, j: 0, score: 0 },
    ];
    const fit = fitBradleyTerry(3, comps);
    for (const t of fit.theta) expect(Number.isFinite(t)).toBe(true);
    expect(fit.scores[0]).toBeGreaterThan(fit.scores[1]!);
    expect(fit.scores[0]).toBeLessThan(1);
    expect(fit.scores[1]).toBeCloseTo(fit.scores[2]!, 12);
  });

  it('scores every rollout 0.5 when all comparisons are ties, and none without data', () => {
    const ties = fitBradleyTerry(3, [
      { i: 0, j: 1, score: 0.5 },
      { i: 1, j: 2, score: 0.5 },
    ]);
    for (const s of ties.scores) expect(s).toBeCloseTo(0.5, 12);
    expect(fitBradleyTerry(4, []).scores).toEqual([0.5, 0.5, 0.5, 0.5]);
  });

  it('matches the hand-solved optimum for two rollouts (3 wins of 4)', () => {
    // θ₀ = −θ₁ = d/2; the gradient 3 − 4σ(d) − (d/2)/σ² = 0 is solved here by bisection.
    const comps: Comparison[] = [
      { i: 0, j: 1, score: 1 },
      { i: 1, j: 0, score: 0 },
      { i: 0, j: 1, score: 1 },
      { i: 1, j: 0, score: 1 },
    ];
    const g = (d: number) => 3 - 4 / (1 + Math.exp(-d)) - d / 2 / BT_PRIOR_SD ** 2;
    let lo = 0;
    let hi = 10;
    for (let k = 0; k < 200; k++) {
      const mid = (lo + hi) / 2;
      if (g(mid) > 0) lo = mid;
      else hi = mid;
    }
    const fit = fitBradleyTerry(2, comps);
    expect(fit.theta[0]! - fit.theta[1]!).toBeCloseTo(lo, 10);
    expect(fit.scores[0]).toBeCloseTo(1 / (1 + Math.exp(-lo)), 10);
  });

  it('does not depend on the order of the comparisons, and the rewards average 0.5', () => {
    const comps: Comparison[] = [
      { i: 0, j: 1, score: 1 },
      { i: 1, j: 2, score: 0.5 },
      { i: 2, j: 3, score: 0 },
      { i: 3, j: 0, score: 1 },
      { i: 1, j: 3, score: 0 },
    ];
    const a = fitBradleyTerry(4, comps);
    const b = fitBradleyTerry(4, [...comps].reverse());
    for (let k = 0; k < 4; k++) expect(a.scores[k]).toBeCloseTo(b.scores[k]!, 12);
    expect(a.scores.reduce((x, y) => x + y, 0) / 4).toBeCloseTo(0.5, 12);
  });

  it('refuses a comparison outside the group', () => {
    expect(() => fitBradleyTerry(2, [{ i: 0, j: 2, score: 1 }])).toThrow(RangeError);
  });
});
