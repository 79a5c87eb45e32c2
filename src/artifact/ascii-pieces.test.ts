// The ASCII scan must split exactly as Qwen's pre-tokenizer regex does: on real SVG
// completions and on fuzzed ASCII that crowds the places the alternatives compete
// (contractions, a space or tab before letters or punctuation, runs of mixed whitespace
// with and without line breaks, the end of the text).
import { describe, expect, it } from 'vitest';
import { fluentEmoji } from '../../test/support/corpus.ts';
import { seededRandom } from '../eval/stats/prng.ts';
import { asciiPieceEnd, isAscii } from './ascii-pieces.ts';
import { PRE_TOKENIZER } from './qwen-bpe.ts';

function regexPieces(text: string): string[] {
  return [...text.matchAll(PRE_TOKENIZER)].map((m) => m[0]);
}

function scanPieces(text: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; ) {
    const end = asciiPieceEnd(text, at);
    expect(end).toBeGreaterThan(at);
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

// Weighted towards the characters whose alternatives compete.
const ALPHABET = [
  "'",
  "'",
  's',
  'S',
  't',
  'r',
  'e',
  'v',
  'l',
  'L',
  'm',
  'd',
  'x',
  'Q',
  '0',
  '7',
  ' ',
  ' ',
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '.',
  '-',
  '"',
  '=',
  '<',
  '/',
  '#',
  '\x00',
  '\x1f',
  '\x7f',
];

describe('asciiPieceEnd', () => {
  it('splits fuzzed ASCII as the regex does', () => {
    const next = seededRandom(20261201); // seeded: a failure reproduces
    for (let k = 0; k < 4000; k++) {
      const len = 1 + Math.floor(next() * 40);
      let text = '';
      for (let i = 0; i < len; i++) text += ALPHABET[Math.floor(next() * ALPHABET.length)];
      expect(scanPieces(text), JSON.stringify(text)).toEqual(regexPieces(text));
    }
  });

  it('splits every printable and control ASCII character pair and triple as the regex does', () => {
    const chars = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));
    for (const a of chars)
      for (const b of chars)
        expect(scanPieces(a + b), JSON.stringify(a + b)).toEqual(regexPieces(a + b));
    const some = ["'", ' ', '\t', '\n', 'a', 'R', '5', '.', '\r', 'l', 'e'];
    for (const a of some)
      for (const b of some)
        for (const c of chars) {
          const t = a + b + c;
          expect(scanPieces(t), JSON.stringify(t)).toEqual(regexPieces(t));
        }
  });

  it('splits real SVG completions as the regex does', () => {
    for (const icon of fluentEmoji(40)) {
      const text = `Here is the icon:\n\n\`\`\`svg\n${icon.svg}\n\`\`\`\nIt's done.  \n`;
      expect(isAscii(text)).toBe(true);
      expect(scanPieces(text)).toEqual(regexPieces(text));
    }
  });

  it('tells ASCII from text with any other character', () => {
    expect(isAscii('<svg width="10"/>\n\t\x00\x7f')).toBe(true);
    expect(isAscii('café')).toBe(false);
    expect(isAscii('a\u0085b')).toBe(false); // NEL: whitespace to the regex, not ASCII
    expect(isAscii('\ud83d')).toBe(false);
  });
});
