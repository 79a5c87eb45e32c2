// Patterns the render room runs on a policy's raw answer must stay linear in its length: the
// answer may be 2 MiB, and a pattern whose repeats can share a run of characters backtracks
// quadratically on a run of them. Found with recheck (a ReDoS checker) over src/, each case
// below took seconds on the old pattern at a tenth of the sizes used here.
//
// The SVG number grammar is written `\d+(?:\.\d*)?` in every regular expression of the render
// room, never `\d+\.?\d*`: in an anchored pattern that fails (a length with trailing junk) the
// second form lets `\d+` and `\d*` share a run of digits every possible way, so the engine's
// work grows with the run's length squared. A policy's 40 KB answer whose root `width` was a
// 40,000-digit number followed by "px!" held the sanitiser for 21 s (the render's time limit is
// 10 s); with the fixed grammar it takes milliseconds. The bounds below are generous against
// this machine's milliseconds and far under the quadratic form's seconds to minutes.
import { describe, expect, it } from 'vitest';
import { timed } from '../../test/support/timed.ts';
import { chooseRenderer } from './auto.ts';
import { expandParameterEntities } from './dtd.ts';
import { rootLength } from './fit.ts';
import { nums, parseTransform } from './geometry.ts';
import { countPointSegments } from './path-segments.ts';
import { sanitizeSvg } from './sanitize.ts';
import { declarations } from './text-style.ts';

const DIGITS = '1'.repeat(100_000);

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

describe('patterns on a hostile answer', () => {
  const spaces = ' '.repeat(200_000);

  it('picks the renderer for a text-anchor followed by a long run of spaces (parent side)', () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg"><text letter-spacing="2" text-anchor=${spaces}x/></svg>`;
    const { value, ms } = timed(() => chooseRenderer(svg));
    expect(value).toBe('librsvg');
    expect(ms).toBeLessThan(1_000);
    expect(
      chooseRenderer('<svg><text letter-spacing="2" text-anchor= " middle">a</text></svg>'),
    ).toBe('chromium');
    expect(
      chooseRenderer('<svg><text style="letter-spacing:2px;text-anchor: end">a</text></svg>'),
    ).toBe('chromium');
  });

  it('reads a root length padded with spaces', () => {
    expect(rootLength(`0${spaces}0`)).toBe(0);
    expect(rootLength(' 12 px ')).toBe(12);
    const { ms } = timed(() => rootLength(`0${spaces}0`));
    expect(ms).toBeLessThan(1_000);
  });

  it('parses a transform of many unclosed functions', () => {
    const { value, ms } = timed(() => parseTransform('skewY('.repeat(100_000)));
    expect(value).toEqual(parseTransform(''));
    expect(ms).toBeLessThan(1_000);
    expect(parseTransform('translate(10 20) scale(2)')).toEqual(
      parseTransform('matrix(2 0 0 2 10 20)'),
    );
  });

  it('expands parameter entities without rescanning from every DOCTYPE or ENTITY', () => {
    const doctypes = `${'<!DOCTYPE a ['.repeat(50_000)}%`;
    const entities = `<!DOCTYPE svg [${'<!ENTITY % a SYSTEM'.repeat(20_000)}${spaces}]>%<svg/>`;
    for (const text of [doctypes, entities, `<!DOCTYPE${spaces}[%]>`]) {
      const { ms } = timed(() => expandParameterEntities(text));
      expect(ms).toBeLessThan(1_000);
    }
    const ok = expandParameterEntities(
      '<!DOCTYPE svg [ <!ENTITY % c "<!ENTITY r \'red\'>"> %c; ]><svg/>',
    );
    expect(ok).toEqual({ ok: true, text: "<!DOCTYPE svg [  <!ENTITY r 'red'> ]><svg/>" });
    expect(
      expandParameterEntities('<!DOCTYPE svg [ <!ENTITY % x SYSTEM "f.dtd" > %x; ]><svg/>').ok,
    ).toBe(false);
  });

  it('sanitises answers built to stall the var() reader and the text-style sheet reader', () => {
    const svgs = [
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 500 500"><rect style="${'---'.repeat(60_000)}" width="5" height="5"/></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 500 500"><!-- <-${'0-'.repeat(100_000)} var( --></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 500 500"><style>${'\u0001'.repeat(0)}${'a'.repeat(150_000)} font</style><text>x</text></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 500 500"><style>${'/* font '.repeat(30_000)}</style><text>x</text></svg>`,
      // 60,000 unclosed <style> openers in a comment, and a var() to make the reader run: 6.8 s.
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 500 500"><!-- ${'<style>a'.repeat(60_000)} --><rect style="fill:var(--x)" width="5" height="5"/></svg>`,
    ];
    for (const svg of svgs) {
      const { ms } = timed(() => sanitizeSvg(svg));
      expect(ms).toBeLessThan(3_000);
    }
  });

  it('reads a font shorthand word by word, and a run of size-like words in linear time', () => {
    expect(declarations('font: italic bold 12px/30px Georgia, serif')).toEqual({
      'font-style': 'italic',
      'font-weight': 'bold',
      'font-size': '12px',
      'font-family': 'Georgia, serif',
    });
    expect(declarations('font: 600 16px "Helvetica Neue", Arial')).toEqual({
      'font-weight': '600',
      'font-size': '16px',
      'font-family': '"Helvetica Neue", Arial',
    });
    expect(declarations('font: 12px / 1.2 serif')['font-family']).toBe('serif');
    expect(declarations('font: bold 16 Arial')).toEqual({});
    // A line break before the last word: the family cannot run to the end (30,000 words took
    // 3.9 s on the former single pattern).
    const { ms } = timed(() => declarations(`font: G${'MLARGE\tU'.repeat(100_000)}\nx`));
    expect(ms).toBeLessThan(1_000);
  });
});
