// The scanner must find the tokens the regular expression it replaced found, and give each
// number the very double Number() gives (Object.is: -0 and NaN included): pathPolygons'
// points, and so every reading built on them, must not move by a bit.
import { describe, expect, it } from 'vitest';
import { fluentEmoji } from '../../test/support/corpus.ts';
import { tokenizePath } from './path-tokens.ts';

const TOKEN = /[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g;

/** What pathPolygons read before: the regular expression's tokens, each through Number(). */
function reference(d: string): { cmds: number[]; vals: number[] } {
  const tokens = d.match(TOKEN) ?? [];
  const isCommand = (t: string) => /^[A-Za-z]$/.test(t);
  return {
    cmds: tokens.map((t) => (isCommand(t) ? t.charCodeAt(0) : 0)),
    vals: tokens.map(Number),
  };
}

function same(d: string): void {
  const got = tokenizePath(d);
  const want = reference(d);
  expect(got.cmds, d).toEqual(want.cmds);
  expect(got.vals.length, d).toBe(want.vals.length);
  for (let i = 0; i < want.vals.length; i++)
    if (!Object.is(got.vals[i], want.vals[i]))
      expect.fail(`${d}: token ${i} ${got.vals[i]} ≠ ${want.vals[i]}`);
}

describe('tokenizePath', () => {
  it('reads numbers and commands as the regular expression and Number() do', () => {
    const cases = [
      'M10 20L30.5-4.25Z',
      'm-.5.5.5-.5',
      'M1.2.3.4',
      'M5. 6.e2 7e 8E+ 9e-3 1e+2',
      'M-0 +0 -0.0 0.0',
      'M +-1 -+2 ++3 --4',
      'M 0.1 0.2 0.3 0.7 1.1 2.675 1.005 123456.789012345',
      'M 9007199254740991 9007199254740993 90071992547409921 12345678901234567890',
      'M 1.00000000000000000000001 0.0000000000000000000000001 1e400 -1e-400',
      'M 00012.500 -000.000 .000001',
      'a 25,26 -30 0,1 50,-25',
      'M10,10 h5 v-5 H0 V0 c1 2 3 4 5 6 s1 2 3 4 q1 2 3 4 t5 6 z x y é 日本 M1 2',
      '',
      '   ',
      '1 2 3',
      'ZZ',
      '.',
      '-',
      '1e',
      'e5',
    ];
    for (const d of cases) same(d);
  });

  it('agrees on random path-like text', () => {
    // A fixed seed: the same strings every run.
    let seed = 12345;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const alphabet = '0123456789012345678901234567890123456789.-+eE ,MmLlCcZzAaHhVvQqSsTtxX\t';
    for (let n = 0; n < 3000; n++) {
      let d = '';
      const len = Math.floor(rand() * 40);
      for (let k = 0; k < len; k++) d += alphabet[Math.floor(rand() * alphabet.length)];
      same(d);
    }
  });

  it('agrees on the path data of 300 Fluent Emoji', () => {
    let paths = 0;
    for (const { svg } of fluentEmoji(300))
      for (const m of svg.matchAll(/\sd="([^"]*)"/g)) {
        same(m[1]!);
        paths++;
      }
    expect(paths).toBeGreaterThan(1000);
  });
});
