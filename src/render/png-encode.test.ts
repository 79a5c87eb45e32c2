// The PNG written from a flattened raster's colour runs, read back by libvips' PNG loader
// (libspng, which checks every chunk's CRC): the same RGB pixels as the flattened raster, no
// alpha, for real icons and for odd shapes, long runs across rows and unaligned input.
import { inflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fluentEmoji } from '../../test/support/corpus.ts';
import { flattenAndMeasure } from './pixel-stats.ts';
import { pngEncoder } from './png-encode.ts';

const encodeRuns = await pngEncoder();

/** Flattens `rgba` on `bg` (in place) and writes its PNG from the runs. */
function encodeRgbPng(
  rgba: Uint8Array,
  w: number,
  h: number,
  bg: readonly [number, number, number] = [255, 255, 255],
): Buffer {
  return encodeRuns(flattenAndMeasure(rgba, w, h, bg).runs, w, h);
}

function rgbOf(rgba: Uint8Array): Buffer {
  const rgb = Buffer.alloc((rgba.length / 4) * 3);
  for (let p = 0; p < rgba.length / 4; p++) {
    rgb[p * 3] = rgba[p * 4]!;
    rgb[p * 3 + 1] = rgba[p * 4 + 1]!;
    rgb[p * 3 + 2] = rgba[p * 4 + 2]!;
  }
  return rgb;
}

async function decoded(png: Buffer) {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return { data, info };
}

/** Random opaque RGBA, `offset` bytes into a bigger buffer. */
function randomOpaque(w: number, h: number, offset: number): Uint8Array {
  const all = new Uint8Array(offset + w * h * 4);
  const px = all.subarray(offset);
  for (let i = 0; i < px.length; i++) px[i] = i % 4 === 3 ? 255 : (i * 7919 + 13) % 256;
  return px;
}

describe('the PNG written from colour runs', () => {
  it('round-trips real flattened icons through a strict decoder as 3-channel RGB', async () => {
    for (const icon of fluentEmoji(6)) {
      const { data, info } = await sharp(Buffer.from(icon.svg), { density: 288 })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const png = encodeRgbPng(data, info.width, info.height, [250, 240, 230]);
      const back = await decoded(png);
      expect([back.info.width, back.info.height, back.info.channels]).toEqual([
        info.width,
        info.height,
        3,
      ]);
      expect(back.data.equals(rgbOf(data))).toBe(true);
      const meta = await sharp(png).metadata();
      expect([meta.format, meta.hasAlpha, meta.depth]).toEqual(['png', false, 'uchar']);
    }
  });

  it('handles odd sizes, unaligned input and a smaller picture after a bigger one', async () => {
    const shapes: [number, number, number][] = [
      [700, 300, 0],
      [1, 1, 0],
      [3, 5, 1], // not on a 4-byte boundary: copied, not viewed as words
      [17, 2, 2],
      [64, 64, 0],
    ];
    for (const [w, h, offset] of shapes) {
      const px = randomOpaque(w, h, offset);
      const back = await decoded(encodeRgbPng(px, w, h));
      expect([back.info.width, back.info.height]).toEqual([w, h]);
      expect(back.data.equals(rgbOf(px))).toBe(true);
    }
  });

  it('writes runs that cross rows, fill whole rows or the whole picture, and partial alpha', async () => {
    const w = 37;
    const h = 11;
    for (const every of [1, 2, 5, w - 1, w, w + 3, 3 * w, w * h]) {
      const px = new Uint8Array(w * h * 4);
      for (let p = 0; p < w * h; p++) {
        const k = Math.floor(p / every);
        px[p * 4] = (k * 53) % 256;
        px[p * 4 + 1] = (k * 101) % 256;
        px[p * 4 + 2] = (k * 29) % 256;
        px[p * 4 + 3] = [255, 0, 128, 255, 7][k % 5]!; // opaque, clear and in between
      }
      const png = encodeRgbPng(px, w, h, [10, 200, 90]);
      const back = await decoded(png);
      // px was flattened in place by encodeRgbPng: its RGB is what the PNG must hold.
      expect(back.data.equals(rgbOf(px)), `runs of ${every}`).toBe(true);
    }
  });

  it('writes unfiltered rows in one IDAT, deflated, with the chunks PNG requires in order', () => {
    const w = 9;
    const h = 4;
    const png = encodeRgbPng(randomOpaque(w, h, 0), w, h);
    const types: string[] = [];
    let idat: Buffer | undefined;
    for (let at = 8; at < png.length; ) {
      const len = png.readUInt32BE(at);
      const type = png.toString('latin1', at + 4, at + 8);
      types.push(type);
      if (type === 'IDAT') idat = png.subarray(at + 8, at + 8 + len);
      at += 12 + len;
    }
    expect(types).toEqual(['IHDR', 'IDAT', 'IEND']);
    const rows = inflateSync(idat!);
    expect(rows.length).toBe(h * (1 + w * 3));
    for (let y = 0; y < h; y++) expect(rows[y * (1 + w * 3)]).toBe(0);
  });
});
