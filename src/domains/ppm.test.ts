// ppmResult must give what pngResult gives for the same page: latex-pdftoppm.ppm and .png
// are one standalone TikZ page written by pdftoppm both ways (-r 150, as the renderer does).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import sharp from '../render/sharp.ts';
import { pngResult } from './png.ts';
import { ppmResult } from './ppm.ts';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/domain-png');
const ppm = readFileSync(join(FIXTURES, 'latex-pdftoppm.ppm'));
const png = readFileSync(join(FIXTURES, 'latex-pdftoppm.png'));
const pixels = (b: Buffer) => sharp(b).removeAlpha().raw().toBuffer();
const codeOf = async (p: ReturnType<typeof ppmResult>) => {
  const r = await p;
  return r.ok ? 'ok' : r.error.code;
};
const header = (w: number, h: number) => Buffer.from(`P6\n${w} ${h}\n255\n`, 'latin1');

describe('ppmResult', () => {
  for (const trim of [true, false]) {
    it(`gives the picture pngResult gives for the same page (trim: ${trim})`, async () => {
      const [a, b] = await Promise.all([
        ppmResult(ppm, 0, {}, { trim }),
        pngResult(png, 0, {}, { trim }),
      ]);
      if (!a.ok || !b.ok) throw new Error('both should draw');
      expect([a.width, a.height]).toEqual([b.width, b.height]);
      expect((await pixels(a.png)).equals(await pixels(b.png))).toBe(true);
    });
  }

  it('keeps the codes: blank, not a PPM, truncated, too large', async () => {
    const white = Buffer.concat([header(5, 4), Buffer.alloc(5 * 4 * 3, 0xff)]);
    expect(await codeOf(ppmResult(white, 0, {}, { trim: true }))).toBe('blank');
    expect(await codeOf(ppmResult(Buffer.from('P5\n2 2\n255\n0000'), 0, {}))).toBe('no_output');
    expect(await codeOf(ppmResult(Buffer.alloc(0), 0, {}))).toBe('no_output');
    expect(await codeOf(ppmResult(ppm.subarray(0, ppm.length - 1), 0, {}))).toBe('no_output');
    expect(await codeOf(ppmResult(header(4097, 4096), 0, {}))).toBe('too_large');
  });
});
