import { describe, expect, it } from 'vitest';
import { describe as describeValues, histogram, TOKEN_BIN_EDGES } from './distribution.ts';

describe('describe', () => {
  it('gives numpy-style linear quantiles', () => {
    // numpy.percentile(range(1, 11), [10, 25, 50, 75, 90, 99]) = 1.9, 3.25, 5.5, 7.75, 9.1, 9.91
    const d = describeValues([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(d.n).toBe(10);
    expect(d.mean).toBe(5.5);
    expect(d.min).toBe(1);
    expect(d.max).toBe(10);
    expect(d.p10).toBeCloseTo(1.9, 12);
    expect(d.p25).toBeCloseTo(3.25, 12);
    expect(d.p50).toBeCloseTo(5.5, 12);
    expect(d.p75).toBeCloseTo(7.75, 12);
    expect(d.p90).toBeCloseTo(9.1, 12);
    expect(d.p99).toBeCloseTo(9.91, 12);
  });

  it('is all null for no values', () => {
    const d = describeValues([]);
    expect(d).toMatchObject({ n: 0, mean: null, p90: null, max: null });
    expect(d.histogram.every((b) => b.count === 0)).toBe(true);
  });
});

describe('histogram', () => {
  it('puts each value in the bin whose lower edge it reaches, last bin open', () => {
    const bins = histogram([0, 249, 250, 999, 1000, 3999, 16000, 90000], TOKEN_BIN_EDGES);
    expect(bins.map((b) => b.count)).toEqual([2, 1, 1, 1, 1, 0, 0, 2]);
    expect(bins[0]).toEqual({ lo: 0, hi: 250, count: 2 });
    expect(bins.at(-1)).toEqual({ lo: 16000, hi: null, count: 2 });
  });
});
