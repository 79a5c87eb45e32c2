import { describe, expect, it } from 'vitest';
import { binomialTest, fleissKappa, krippendorffAlpha } from './agreement.ts';

describe('binomialTest (two-sided, exact)', () => {
  it('matches values computed independently from the binomial pmf', () => {
    // Reference values: Python's math.comb pmf summed over outcomes no likelier than the
    // observed one (scipy's binomtest definition), written down in the comments.
    expect(binomialTest(7, 20)).toBeCloseTo(0.26317596435546875, 12);
    expect(binomialTest(162, 289)).toBeCloseTo(0.04531303895515684, 10);
    expect(binomialTest(371, 663)).toBeCloseTo(0.0024261941164851857, 10);
    // 3 of 3: outcomes 0 and 3 each have 1/8 → p = 1/4.
    expect(binomialTest(3, 3)).toBeCloseTo(0.25, 12);
  });

  it('gives 1 at the centre and null without trials', () => {
    expect(binomialTest(10, 20)).toBeCloseTo(1, 12);
    expect(binomialTest(0, 0)).toBeNull();
  });
});

describe('fleissKappa', () => {
  // The worked example of Fleiss (1971) as printed in Wikipedia's "Fleiss' kappa" article:
  // 10 items, 14 raters, 5 categories: P̄ = 0.378, P̄e = 0.213, κ = 0.210.
  const TABLE = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
  ];

  it('reproduces the published worked example', () => {
    const r = fleissKappa(TABLE);
    expect(r.observed).toBeCloseTo(0.378021978021978, 12);
    expect(r.expected).toBeCloseTo(0.21275510204081632, 12);
    expect(r.kappa).toBeCloseTo(0.20993070442195522, 12);
    expect(r.kappa!.toFixed(3)).toBe('0.210');
    expect(r.items).toBe(10);
  });

  it('is 1 for perfect agreement across categories and leaves out single ratings', () => {
    const r = fleissKappa([
      [3, 0],
      [0, 3],
      [1, 0],
    ]);
    expect(r.kappa).toBeCloseTo(1, 12);
    expect(r.items).toBe(2);
    // Two raters, one item each way split: P̄ = 0, P̄e = 0.5 → κ = −1.
    expect(
      fleissKappa([
        [1, 1],
        [1, 1],
      ]).kappa,
    ).toBeCloseTo(-1, 12);
  });
});

describe('krippendorffAlpha', () => {
  // Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the example with
  // 4 observers, 12 units and missing values: α_interval = 0.849, α_nominal = 0.743.
  // Exact values recomputed independently from the coincidence matrix (Python, by hand-written
  // loops over o_ck): 0.8491071428571428 and 0.743421052631579.
  const missing = null;
  const OBSERVERS = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, missing, missing, missing],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, missing, 3],
    [missing, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, missing],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, missing],
  ];
  const units = OBSERVERS[0]!.map((_, u) =>
    OBSERVERS.map((o) => o[u]).filter((v): v is number => v !== null),
  );

  it('reproduces the published interval and nominal values', () => {
    const interval = krippendorffAlpha(units, 'interval');
    expect(interval.alpha).toBeCloseTo(0.8491071428571428, 12);
    expect(interval.alpha!.toFixed(3)).toBe('0.849');
    expect(krippendorffAlpha(units, 'nominal').alpha).toBeCloseTo(0.743421052631579, 12);
    // Unit 12 has a single value: not pairable.
    expect(interval.units).toBe(11);
    expect(interval.values).toBe(40);
  });

  it('is 1 for identical ratings, undefined without variation or pairs', () => {
    expect(
      krippendorffAlpha([
        [10, 10],
        [50, 50, 50],
      ]).alpha,
    ).toBeCloseTo(1, 12);
    expect(krippendorffAlpha([[5, 5]]).alpha).toBeNull();
    expect(krippendorffAlpha([[1], [2]]).alpha).toBeNull();
  });
});
