// The SVG number grammar is written `\d+(?:\.\d*)?` in every regular expression of the render
// room, never `\d+\.?\d*`: in an anchored pattern that fails (a length with trailing junk) the
// second form lets `\d+` and `\d*` share a run of digits every possible way, so the engine's
// work grows with the run's length squared. A policy's 40 KB answer whose root `width` was a
// 40,000-digit number followed by "px!" held the sanitiser for 21 s (the render's time limit is
// 10 s); with the fixed grammar it takes milliseconds. The bounds below are generous against
// this machine's milliseconds and far under the quadratic form's seconds to minutes.
import { describe, expect, it } from 'vitest';
import { rootLength } from './fit.ts';
import { nums } from './geometry.ts';
import { countPointSegments } from './path-segments.ts';
import { sanitizeSvg } from './sanitize.ts';

const DIGITS = '1'.repeat(100_000);

function timed<T>(run: () => T): { value: T; ms: number } {
  const t = performance.now();
  const value = run();
  return { value, ms: performance.now() - t };
}

describe('the number grammar', () => {
  it('reads the same lengths as before', () => {
    expect(rootLength('12')).toBe(12);
    expect(rootLength(' 1.5px ')).toBe(1.5);
    expect(rootLength('2.')).toBe(2);
    expect(rootLength('.5in')).toBe(48);
    expect(rootLength('1e2')).toBe(100);
    expect(rootLength('1.5e1mm')).toBeCloseTo(15 * (96 / 25.4));
    expect(rootLength('1..5')).toBe(0);
    expect(rootLength('50%')).toBe(0);
    expect(nums('M1.5.5-2e1,3.')).toEqual([1.5, 0.5, -20, 3]);
    expect(countPointSegments('0,0 10.5,0 10,10.', true)).toBe(3);
  });

  it('reads a 100,000-digit length with trailing junk in linear time', () => {
    const { value, ms } = timed(() => rootLength(`${DIGITS}px!`));
    expect(value).toBe(0);
    expect(ms).toBeLessThan(1_000);
  });

  it('reads a hostile number list in linear time', () => {
    const { value, ms } = timed(() => countPointSegments(`${DIGITS}x ${DIGITS}e`, false));
    expect(value).toBe(0);
    expect(ms).toBeLessThan(1_000);
  });

  it('sanitises drawings whose root, nested and <use> sizes are hostile digit runs', () => {
    const run = DIGITS.slice(0, 40_000);
    const drawings = [
      `<svg xmlns="http://www.w3.org/2000/svg" width="${run}px!" height="10" viewBox="0 0 500 500"><rect width="10" height="10"/></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 500 500"><symbol id="s" viewBox="0 0 10 10"><rect width="10" height="10"/></symbol><use href="#s" width="${run}x%" height="50"/></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 500 500"><svg width="${run}px!" height="20" viewBox="0 0 10 10"><rect width="10" height="10"/></svg></svg>`,
    ];
    for (const svg of drawings) {
      const { value, ms } = timed(() => sanitizeSvg(svg));
      expect(value.ok).toBe(true);
      expect(ms).toBeLessThan(2_000);
    }
  });
});
