// flattenAndMeasure against a plain per-pixel reference: same pixels, same statistics,
// for a grey and a coloured background, on real rendered icons and on random alpha.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fluentEmoji } from '../../test/support/corpus.ts';
import { measurePicture } from './picture-stats.ts';
import { flattenInPlace, INK_THRESHOLD } from './pixel-stats.ts';

/** The RGB bytes of an RGBA raster, and whether every pixel is opaque. */
function rgbOf(rgba: Uint8Array): { rgb: Buffer; opaque: boolean } {
  const rgb = Buffer.alloc((rgba.length / 4) * 3);
  let opaque = true;
  for (let p = 0; p < rgba.length / 4; p++) {
    rgb[p * 3] = rgba[p * 4]!;
    rgb[p * 3 + 1] = rgba[p * 4 + 1]!;
    rgb[p * 3 + 2] = rgba[p * 4 + 2]!;
    if (rgba[p * 4 + 3] !== 255) opaque = false;
  }
  return { rgb, opaque };
}

function reference(rgba: Uint8Array, w: number, h: number, bg: readonly [number, number, number]) {
  const rgb = Buffer.alloc(w * h * 3);
  let sq = 0;
  let ink = 0;
  let border = 0;
  let borderInk = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      const a = rgba[i + 3]!;
      let visible = false;
      for (let c = 0; c < 3; c++) {
        const v = Math.floor((rgba[i + c]! * a + bg[c]! * (255 - a)) / 255 + 0.5);
        rgb[(y * w + x) * 3 + c] = v;
        sq += (v - bg[c]!) ** 2;
        if (Math.abs(v - bg[c]!) > INK_THRESHOLD) visible = true;
      }
      if (visible) ink++;
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) {
        border++;
        if (visible) borderInk++;
      }
    }
  }
  // The picture's own ground, pixel by pixel: the mean colour of the largest 4-bit bin
  // (first bin on a tie) and the share of pixels visibly off it.
  const counts = new Array<number>(4096).fill(0);
  const sums = new Array<number>(4096 * 3).fill(0);
  for (let p = 0; p < w * h; p++) {
    const k = ((rgb[p * 3]! >> 4) << 8) | ((rgb[p * 3 + 1]! >> 4) << 4) | (rgb[p * 3 + 2]! >> 4);
    counts[k]!++;
    for (let c = 0; c < 3; c++) sums[k * 3 + c]! += rgb[p * 3 + c]!;
  }
  const best = counts.indexOf(Math.max(...counts));
  const dominant = [0, 1, 2].map((c) => Math.round(sums[best * 3 + c]! / counts[best]!));
  let off = 0;
  for (let p = 0; p < w * h; p++) {
    if ([0, 1, 2].some((c) => Math.abs(rgb[p * 3 + c]! - dominant[c]!) > INK_THRESHOLD)) off++;
  }
  return {
    rgb,
    dominant,
    dominantShare: counts[best]! / (w * h),
    pictureInk: off / (w * h),
    mse: sq / (w * h * 3 * 255 * 255),
    ink: ink / (w * h),
    borderInk: borderInk / border,
  };
}

describe('flattenInPlace', () => {
  const cases: [string, readonly [number, number, number]][] = [
    ['white', [255, 255, 255]],
    ['teal', [16, 128, 160]],
  ];
  it.each(cases)('matches the reference on a background of %s', async (_name, bg) => {
    const icon = fluentEmoji(3)[2]!;
    const { data: real, info } = await sharp(Buffer.from(icon.svg), { density: 288 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.channels]).toEqual([128, 4]);
    const random = new Uint8Array(37 * 23 * 4).map((_, i) => (i * 2654435761) >>> 24);
    // The same random pixels one byte into a buffer: a view that is not word-aligned.
    const unaligned = new Uint8Array(random.length + 1).subarray(1);
    unaligned.set(random);
    for (const [rgba, w, h] of [
      [real, info.width, info.height],
      [random, 37, 23],
      [unaligned, 37, 23],
    ] as const) {
      const want = reference(rgba, w, h, bg);
      // Flattened in a copy that keeps the input's alignment (offset 1 stays unaligned).
      const flat = new Uint8Array(rgba.length + rgba.byteOffset).subarray(rgba.byteOffset);
      flat.set(rgba);
      const stats = flattenInPlace(flat, w, h, bg);
      const got = { stats, ...rgbOf(flat) };
      expect(got.opaque).toBe(true);
      expect(got.rgb.equals(want.rgb)).toBe(true);
      expect(got.stats.mseVsBackground).toBeCloseTo(want.mse, 12);
      expect(got.stats.inkCoverage).toBeCloseTo(want.ink, 12);
      expect(got.stats.borderInk).toBeCloseTo(want.borderInk, 12);
      // The picture statistics come from the colour runs built while flattening: the same
      // as measured pixel by pixel, and as measurePicture finds on the flattened raster.
      expect(got.stats.picture?.dominant).toEqual(want.dominant);
      expect(got.stats.picture?.dominantShare).toBeCloseTo(want.dominantShare, 12);
      expect(got.stats.picture?.ink).toBeCloseTo(want.pictureInk, 12);
      expect(got.stats.picture).toEqual(measurePicture(got.rgb, w, h, INK_THRESHOLD));
    }
  });
});
