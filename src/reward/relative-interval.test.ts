// The interval of a pairwise reward (reward/relative-interval.ts): a percentile bootstrap of
// the Bradley–Terry fit over the compared pairs. It holds the point, is reproducible to the
// bit, is wider when the judge contradicts itself than when it is consistent, and is not
// claimed at all from fewer than three pairs.
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../test/support/schema-random.ts';
import { type Comparison, fitBradleyTerry } from './bradley-terry.ts';
import { MIN_PAIRS, relativeIntervals } from './relative-interval.ts';

/** All pairs of n in both orders; the better (higher index) wins unless `flip` says otherwise. */
function allPairs(n: number, flip: (i: number, j: number) => boolean): Comparison[] {
  const out: Comparison[] = [];
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++)
      for (const [a, b] of [
        [i, j],
        [j, i],
      ] as const) {
        const jWins = !flip(a, b);
        out.push({ i: a, j: b, score: b > a === jWins ? 0 : 1 });
      }
  return out;
}

const meanWidth = (iv: [number, number][]) =>
  iv.reduce((s, [lo, hi]) => s + (hi - lo), 0) / iv.length;

describe('relative reward intervals', () => {
  it('hold the point, repeat to the bit, and widen with a judge that contradicts itself', () => {
    const n = 8;
    const consistent = allPairs(n, () => false);
    const rng = seededRng(5);
    const noisy = allPairs(n, () => rng() < 0.3);
    const widths: number[] = [];
    for (const comps of [consistent, noisy]) {
      const fit = fitBradleyTerry(n, comps);
      const a = relativeIntervals(n, comps, fit.scores, 0.9);
      const b = relativeIntervals(n, comps, fit.scores, 0.9);
      expect(a).toEqual(b);
      if (a.method !== 'pair-bootstrap') throw new Error('expected a bootstrap');
      expect(a).toMatchObject({ resamples: 200, pairs: 28 });
      for (const [k, [lo, hi]] of a.intervals.entries()) {
        expect(lo).toBeLessThanOrEqual(fit.scores[k]!);
        expect(hi).toBeGreaterThanOrEqual(fit.scores[k]!);
        expect(lo).toBeGreaterThan(0);
        expect(hi).toBeLessThan(1);
      }
      widths.push(meanWidth(a.intervals));
      // A lower level never gives a wider interval.
      const narrow = relativeIntervals(n, comps, fit.scores, 0.5);
      if (narrow.method === 'pair-bootstrap')
        expect(meanWidth(narrow.intervals)).toBeLessThanOrEqual(widths.at(-1)!);
    }
    expect(widths[0]!).toBeGreaterThan(0);
    expect(widths[1]!).toBeGreaterThan(widths[0]!);
  });

  it(`claims no interval from fewer than ${MIN_PAIRS} compared pairs, and says why`, () => {
    const comps: Comparison[] = [
      { i: 0, j: 1, score: 1 },
      { i: 1, j: 0, score: 0 },
    ];
    const r = relativeIntervals(2, comps, fitBradleyTerry(2, comps).scores, 0.9);
    expect(r).toMatchObject({ method: 'none', pairs: 1 });
    if (r.method === 'none') expect(r.note).toMatch(/fewer than 3 pairs/);
  });
});
