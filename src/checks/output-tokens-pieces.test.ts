// repeatedBytes cuts its pieces with indexOf instead of split(/(?<=>)/) (a quarter of
// runChecks' CPU on the bench corpus) and tracks each piece's context with a numbered stack in
// the same pass: the counts must be the plain definition's below, to the byte.
import { describe, expect, it } from 'vitest';
import { fluentEmoji } from '../../test/support/corpus.ts';
import { seededRandom } from '../eval/stats/prng.ts';
import { repeatedBytes } from './output-tokens.ts';
import { MAX_CONTEXT_DEPTH, referencedIds } from './paint-context.ts';

/**
 * The definition, written the slow, plain way: lines, each line split after every '>'; a piece
 * is keyed by the chain of open tags around it (found by a regex over the whole text, ids no
 * `url(#…)`/`href="#…"` points at dropped), and counted before its own tag opens or closes.
 */
function reference(text: string): number {
  const referenced = referencedIds(text);
  const tags = new Map<number, string>();
  for (const m of text.matchAll(/<[^<>]*>/g)) tags.set(m.index + m[0].length - 1, m[0]);
  const stack: { name: string; tag: string }[] = [];
  const apply = (t: string) => {
    const close = /^<\/\s*([^\s>]+)/.exec(t);
    if (close) {
      const i = stack.map((e) => e.name).lastIndexOf(close[1] ?? '');
      if (i >= 0) stack.splice(i);
      return;
    }
    const name = /^<([A-Za-z][\w:.-]*)/.exec(t)?.[1];
    if (!name || t.endsWith('/>') || VOID_NAMES.includes(name.toLowerCase())) return;
    const id = /\sid\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(t);
    stack.push({
      name,
      tag: id && !referenced.has(id[1] ?? id[2] ?? '') ? t.replace(id[0], '') : t,
    });
  };
  const seen = new Set<string>();
  let repeated = 0;
  let at = 0;
  for (const line of text.split('\n')) {
    for (const raw of line.split(/(?<=>)/)) {
      const piece = raw.trim();
      if (piece.length >= 12 && !piece.startsWith('</')) {
        const key = JSON.stringify([stack.slice(0, MAX_CONTEXT_DEPTH).map((e) => e.tag), piece]);
        if (seen.has(key)) repeated += piece.length;
        else seen.add(key);
      }
      at += raw.length;
      const tag = raw.endsWith('>') ? tags.get(at - 1) : undefined;
      if (tag) apply(tag);
    }
    at += 1;
  }
  return repeated;
}

const VOID_NAMES = 'area base br col embed hr img input link meta param source track wbr'.split(
  ' ',
);

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
  '<g transform="scale(2)">',
  '<g id="a">',
  '<g\n id="b">',
  '<rect fill="url(#a)"/>',
  '</g >',
  '<br>',
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

  it('counts what the plain definition counts past the context depth cap', () => {
    for (const open of ['<g>', '<g fill="red">', '<g transform="translate(1)">\n']) {
      const text = `${open}<circle cx="5" cy="5" r="4"/>`.repeat(200) + '</g>'.repeat(150);
      expect(repeatedBytes(text).repeated).toBe(reference(text));
    }
  });

  it('stays linear on long lines with no > and a > at the very end', () => {
    const text = `${`${'a'.repeat(30)}\n`.repeat(20000)}>`;
    expect(repeatedBytes(text).repeated).toBe(reference(text));
  });
});
