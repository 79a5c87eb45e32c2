// Dispersion-based RL prompt selection: the seed's example (five scores of mean 0.64 give
// U = 0.045) exactly, grader faults left out, rule-based zeros counted, deterministic
// ranking, and the three selection flags.
import { describe, expect, it } from 'vitest';
import { dispersionHistogram, dispersions, formatHistogram, selectPrompts } from './dispersion.ts';

const ok = (prompt_id: string, reward: number) => ({ prompt_id, reward, status: 'ok' });

describe('dispersions', () => {
  it('reproduces the seed: five scores with mean 0.64 give U = 0.045', () => {
    // Deviations ±0.30, 0, ±0.15: Σd² = 0.09·2 + 0.0225·2 = 0.225, /5 = 0.045.
    const scores = [0.94, 0.34, 0.64, 0.79, 0.49];
    const [d] = dispersions(scores.map((s) => ok('p', s)));
    expect(d!.k).toBe(5);
    expect(d!.mean).toBeCloseTo(0.64, 15);
    expect(d!.dispersion).toBeCloseTo(0.045, 15);
  });

  it('counts a rule-based zero as 0 and leaves grader faults out', () => {
    const [d] = dispersions([
      ok('p', 1),
      { prompt_id: 'p', reward: 0, status: 'unscoreable' },
      { prompt_id: 'p', reward: 0, status: 'grader_error' },
    ]);
    expect(d).toMatchObject({ k: 2, mean: 0.5, dispersion: 0.25, faults: 1 });
  });
});

describe('selectPrompts', () => {
  const all = dispersions([
    ...[0, 1].map((r) => ok('a', r)), // U 0.25
    ...[0.25, 0.75].map((r) => ok('b', r)), // U 0.0625 (exact in binary)
    ...[0.5, 0].map((r) => ok('c', r)), // U 0.0625 (ties b: id order)
    ...[0.9, 0.9].map((r) => ok('d', r)), // U 0
    ok('e', 0.3), // k 1: not ranked
  ]);

  it('ranks by U with ties by id, and skips instructions with too few scores', () => {
    const r = selectPrompts(all, {});
    expect(r.ranked.map((d) => d.prompt_id)).toEqual(['a', 'b', 'c', 'd']);
    expect(r.tooFew).toBe(1);
  });

  it('selects by --top-k, --top-fraction (rounded up) and --min-dispersion', () => {
    expect(selectPrompts(all, { topK: 2 }).chosen.map((d) => d.prompt_id)).toEqual(['a', 'b']);
    expect(selectPrompts(all, { topFraction: 0.5 }).chosen.map((d) => d.prompt_id)).toEqual([
      'a',
      'b',
    ]);
    expect(selectPrompts(all, { topFraction: 0.3 }).chosen).toHaveLength(2);
    expect(selectPrompts(all, { minDispersion: 0.0625 }).chosen.map((d) => d.prompt_id)).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(selectPrompts(all, { minDispersion: 0.0625, topK: 1 }).chosen).toHaveLength(1);
  });

  it('bins U on [0, 0.25] with the maximum in the last bin', () => {
    const h = dispersionHistogram([0, 0.01, 0.0125, 0.25], 20);
    expect(h.counts[0]).toBe(2);
    expect(h.counts[1]).toBe(1);
    expect(h.counts[19]).toBe(1);
    expect(formatHistogram(h).split('\n')).toHaveLength(20);
  });
});
