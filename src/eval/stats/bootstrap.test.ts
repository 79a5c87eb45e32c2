import { mean } from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import { bootstrapCI } from './bootstrap.ts';
import { spearman } from './correlation.ts';
import { seededRandom } from './prng.ts';

const avg = (v: readonly number[]) => (v.length > 0 ? mean(v as number[]) : null);

describe('seededRandom', () => {
  it('is reproducible and roughly uniform', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const c = seededRandom(43);
    const xs = Array.from({ length: 20_000 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs.slice(0, 5));
    expect(c()).not.toBe(xs[0]);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(mean(xs)).toBeCloseTo(0.5, 2);
    // Each tenth of [0,1) holds about 2,000 draws.
    const deciles = new Array<number>(10).fill(0);
    for (const x of xs) deciles[Math.floor(x * 10)]!++;
    for (const d of deciles) expect(Math.abs(d - 2000)).toBeLessThan(200);
  });
});

describe('bootstrapCI', () => {
  it('is reproducible for a seed and moves with the seed', () => {
    const data = Array.from({ length: 40 }, (_, i) => (i * 37) % 11);
    const a = bootstrapCI(data, avg, { seed: 5, resamples: 500 });
    const b = bootstrapCI(data, avg, { seed: 5, resamples: 500 });
    const c = bootstrapCI(data, avg, { seed: 6, resamples: 500 });
    expect(a).toEqual(b);
    expect(c.low).not.toBe(a.low);
    expect(a).toMatchObject({ level: 0.95, resamples: 500, valid: 500 });
  });

  it('approximates the normal-theory interval of a mean', () => {
    // 0..99: mean 49.5, population sd √((100²−1)/12) = 28.866; the bootstrap's se is
    // sd/√n = 2.8866, so the 95% interval is about 49.5 ± 1.96·2.8866 = [43.84, 55.16].
    const data = Array.from({ length: 100 }, (_, i) => i);
    const ci = bootstrapCI(data, avg, { seed: 11, resamples: 2000 });
    expect(ci.estimate).toBe(49.5);
    expect(ci.low!).toBeGreaterThan(43.84 - 0.6);
    expect(ci.low!).toBeLessThan(43.84 + 0.6);
    expect(ci.high!).toBeGreaterThan(55.16 - 0.6);
    expect(ci.high!).toBeLessThan(55.16 + 0.6);
  });

  it('collapses to a point for constant data', () => {
    const ci = bootstrapCI([0.7, 0.7, 0.7, 0.7], avg, { resamples: 200 });
    expect(ci).toMatchObject({ estimate: 0.7, low: 0.7, high: 0.7 });
  });

  it('drops resamples where the statistic is undefined and says how many were kept', () => {
    // Three pairs: about 1 in 4 resamples repeats one pair thrice or draws a constant
    // side, where ρ is undefined.
    const pairs = [
      [1, 1],
      [2, 3],
      [3, 2],
    ] as const;
    const rho = (s: readonly (readonly number[])[]) =>
      spearman(
        s.map((p) => p[0]!),
        s.map((p) => p[1]!),
      );
    const ci = bootstrapCI(pairs, rho, { resamples: 1000, seed: 2 });
    expect(ci.estimate).toBeCloseTo(0.5, 12);
    expect(ci.valid).toBeLessThan(1000);
    expect(ci.valid).toBeGreaterThan(500);
    expect(ci.low!).toBeLessThanOrEqual(ci.high!);
  });

  it('gives null intervals for empty data or an undefined estimate', () => {
    expect(bootstrapCI([], avg)).toMatchObject({ estimate: null, low: null, high: null });
    const constant = bootstrapCI(
      [
        [1, 1],
        [1, 2],
      ],
      (s) =>
        spearman(
          s.map((p) => p[0]!),
          s.map((p) => p[1]!),
        ),
    );
    expect(constant).toMatchObject({ estimate: null, low: null, high: null, valid: 0 });
  });
});
