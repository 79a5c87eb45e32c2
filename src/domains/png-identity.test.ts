// pngResult decodes once and crops in JS (issue 36); these check that what it hands on is,
// pixel for pixel, what the three-decode sharp pipeline it replaced handed on — on a real
// output of each domain's tool (test/fixtures/domain-png: pdftoppm, dot, matplotlib,
// LilyPond's Ghostscript with its colour profile, RDKit, Chromium) and on the PNG kinds none
// of them happens to write today (grey, palette, interlaced, 16-bit, alpha with a trim).
// The old pipeline is restated here as the reference; bytes may differ, decoded pixels not.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import sharp from '../render/sharp.ts';
import { MAX_DOMAIN_PIXELS, pngResult } from './png.ts';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/domain-png');

/** What pngResult returned before issue 36 (src/domains/png.ts at 182a1a9), restated. */
async function before(png: Buffer, trim: boolean) {
  try {
    const meta = await sharp(png, { limitInputPixels: MAX_DOMAIN_PIXELS }).metadata();
    if (meta.format !== 'png' || !meta.width || !meta.height) return { code: 'no_output' };
    const { data } = await sharp(png, { limitInputPixels: MAX_DOMAIN_PIXELS })
      .flatten({ background: '#ffffff' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (data.subarray(3).equals(data.subarray(0, data.length - 3))) return { code: 'blank' };
    if (!trim) return { png, width: meta.width, height: meta.height };
    const { data: out, info } = await sharp(png)
      .flatten({ background: '#ffffff' })
      .trim({ background: '#ffffff', threshold: 1 })
      .extend({ top: 8, bottom: 8, left: 8, right: 8, background: '#ffffff' })
      .png()
      .toBuffer({ resolveWithObject: true });
    return { png: out, width: info.width, height: info.height };
  } catch (err) {
    return { code: /pixel limit/i.test(String(err)) ? 'too_large' : 'no_output' };
  }
}

/** A picture as it is judged: flattened on white, 8-bit RGB samples. */
const seen = (png: Buffer) =>
  sharp(png)
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer();

async function expectSame(png: Buffer, trim: boolean) {
  const want = await before(png, trim);
  const got = await pngResult(png, 0, {}, { trim });
  if ('code' in want) {
    expect(got.ok ? 'ok' : got.error.code).toBe(want.code);
    return;
  }
  if (!got.ok) throw new Error(`expected a picture, got ${got.error.code}: ${got.error.message}`);
  expect([got.width, got.height]).toEqual([want.width, want.height]);
  const [a, b] = await Promise.all([seen(got.png), seen(want.png!)]);
  expect(a.length).toBe(b.length);
  expect(a.equals(b)).toBe(true);
}

describe('pngResult gives the pictures the old pipeline gave', () => {
  for (const name of readdirSync(FIXTURES).filter((f) => f.endsWith('.png'))) {
    it(`${name}, as it is and trimmed`, async () => {
      const png = readFileSync(join(FIXTURES, name));
      await expectSame(png, false);
      await expectSame(png, true);
    });
  }

  it('gives the blank code on a real `digraph {}`, blank only once flattened', async () => {
    const png = readFileSync(join(FIXTURES, 'dot-empty-graph.png'));
    const { data } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect(data.subarray(4).equals(data.subarray(0, data.length - 4))).toBe(false); // alpha varies
    const r = await pngResult(png, 0, {}, { trim: true });
    expect(r.ok ? 'ok' : r.error.code).toBe('blank');
  });

  it('on grey, palette, interlaced, 16-bit and transparent PNGs', async () => {
    const w = 61;
    const h = 37;
    const rgba = Buffer.alloc(w * h * 4, 255);
    // A frame, a diagonal, and specks a median filter removes.
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const o = (y * w + x) * 4;
        const ink = (y === 9 && x > 10 && x < 50) || x === y + 12 || (x === 3 && y === 30);
        if (ink) rgba.set([20 + x, 90, 200 - y, x % 3 ? 255 : 120], o);
      }
    const raw = { raw: { width: w, height: h, channels: 4 as const } };
    const rgb = sharp(rgba, raw).removeAlpha();
    const kinds = [
      await rgb.clone().png().toBuffer(),
      await rgb.clone().png({ progressive: true }).toBuffer(),
      await rgb.clone().png({ palette: true, colours: 16 }).toBuffer(),
      await rgb.clone().greyscale().png().toBuffer(),
      await rgb.clone().toColourspace('rgb16').png().toBuffer(),
      await sharp(rgba, raw).png().toBuffer(),
      await sharp(rgba, raw).png({ palette: true }).toBuffer(),
    ];
    for (const png of kinds) {
      await expectSame(png, false);
      await expectSame(png, true);
    }
  });

  it('keeps the codes for what is not a picture', async () => {
    for (const bad of [Buffer.from('not a png'), Buffer.alloc(0)]) {
      expect(
        ((await pngResult(bad, 0, {}, { trim: true })) as { error: { code: string } }).error.code,
      ).toBe('no_output');
    }
    const huge = await sharp({
      create: { width: 4097, height: 4097, channels: 3, background: '#ffffff' },
    })
      .png({ compressionLevel: 1 })
      .toBuffer();
    const r = await pngResult(huge, 0, {}, { trim: true });
    expect(r.ok ? 'ok' : r.error.code).toBe('too_large');
  });

  it('writes a trimmed picture with the project encoder (deflate level 1), not sharp at level 6', async () => {
    const png = readFileSync(join(FIXTURES, 'latex-pdftoppm.png'));
    const r = await pngResult(png, 0, {}, { trim: true });
    if (!r.ok) throw new Error(r.error.message);
    const idat = r.png.indexOf('IDAT');
    // zlib header: 0x78 then FLEVEL in the top bits of the second byte (0x01 = fastest).
    expect([r.png[idat + 4], r.png[idat + 5]]).toEqual([0x78, 0x01]);
  });
});
