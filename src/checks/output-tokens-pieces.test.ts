// repeatedBytes cuts its pieces with indexOf instead of split(/(?<=>)/) (a quarter of
// runChecks' CPU on the bench corpus): the counts must be the lookbehind split's, to the byte.
import { describe, expect, it } from 'vitest';
import { fluentEmoji } from '../../test/support/corpus.ts';
import { seededRandom } from '../eval/stats/prng.ts';
import { repeatedBytes } from './output-tokens.ts';

/** The definition: lines, then each line split after every '>' (the code before the change). */
function reference(text: string): number {
  const seen = new Set<string>();
  let repeated = 0;
  for (const line of text.split('\n')) {
    for (const raw of line.split(/(?<=>)/)) {
      const piece = raw.trim();
      if (piece.length < 12 || piece.startsWith('</')) continue;
      if (seen.has(piece)) repeated += piece.length;
      else seen.add(piece);
    }
  }
  return repeated;
}

const PARTS = [
  '>',
  '>>',
  '<',
  '\n',
  '\n\n',
  ' ',
  '\r\n',
  '</g>',
  '<path d="M0 0h10"/>',
  'abcdefghijklm',
  'x',
];

describe('repeatedBytes pieces', () => {
  it('counts what the lookbehind split counted, on seeded random texts', () => {
    const rand = seededRandom(36);
    for (let k = 0; k < 2000; k++) {
      let text = '';
      const n = Math.floor(rand() * 60);
      for (let i = 0; i < n; i++) text += PARTS[Math.floor(rand() * PARTS.length)];
      expect(repeatedBytes(text).repeated, JSON.stringify(text)).toBe(reference(text));
    }
  });

  it('counts what the lookbehind split counted, on real drawings, minified and repeated', () => {
    for (const icon of fluentEmoji(60)) {
      const one = icon.svg;
      const minified = one.replace(/\n\s*/g, '');
      for (const text of [one, minified, `${one}\n${one}`, `${minified}${minified}\n`, '']) {
        expect(repeatedBytes(text).repeated).toBe(reference(text));
      }
    }
  });

  it('stays linear on long lines with no > and a > at the very end', () => {
    const text = `${`${'a'.repeat(30)}\n`.repeat(20000)}>`;
    expect(repeatedBytes(text).repeated).toBe(reference(text));
  });
});
