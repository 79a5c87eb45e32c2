// Flattens a straight-alpha RGBA raster onto an opaque background and measures it in the
// same pass: one walk over the pixels instead of a libvips flatten plus a second read
// (measured: libvips' flatten costs more than librsvg's rasterising of a typical icon).
import { measurePictureRuns, runScratch } from './picture-stats.ts';
import type { PixelStats } from './types.ts';

/** A channel difference above this (out of 255) counts as ink. */
export const INK_THRESHOLD = 8;

export interface Flattened {
  rgb: Buffer;
  stats: PixelStats;
}

function inked(rgb: Uint8Array, o: number, br: number, bg: number, bb: number): boolean {
  return (
    Math.abs(rgb[o]! - br) > INK_THRESHOLD ||
    Math.abs(rgb[o + 1]! - bg) > INK_THRESHOLD ||
    Math.abs(rgb[o + 2]! - bb) > INK_THRESHOLD
  );
}

/**
 * n pixels of the background colour, filled natively (doubling copies), not per pixel; in
 * `into` when it is given and large enough.
 */
function fillBackground(n: number, bg: readonly [number, number, number], into?: Buffer): Buffer {
  const total = n * 3;
  const reuse = into !== undefined && into.length >= total;
  if (bg[0] === bg[1] && bg[1] === bg[2]) {
    return reuse ? into.subarray(0, total).fill(bg[0]) : Buffer.alloc(total, bg[0]);
  }
  const rgb = reuse ? into.subarray(0, total) : Buffer.allocUnsafe(total);
  if (total === 0) return rgb;
  rgb[0] = bg[0];
  rgb[1] = bg[1];
  rgb[2] = bg[2];
  for (let filled = 3; filled < total; filled *= 2)
    rgb.copyWithin(filled, 0, Math.min(filled, total - filled));
  return rgb;
}

export function flattenAndMeasure(
  rgba: Uint8Array,
  width: number,
  height: number,
  bg: readonly [number, number, number],
  /**
   * Where to write the RGB pixels when it is large enough (a render worker reuses one
   * buffer: a fresh 0.75 MB per render is external memory V8 answers with full GCs).
   */
  into?: Buffer,
): Flattened {
  const n = width * height;
  const [br, bgG, bb] = bg;
  const rgb = fillBackground(n, bg, into);
  // Whole pixels as little-endian words (A in the top byte): one load per pixel; fully
  // transparent pixels (often half an icon) keep the prefilled background untouched. A
  // pixel equal to the one before (flat fills: most of a drawing) costs a compare and a
  // store; the statistics are added once per run of equal input pixels, and the runs go on
  // to the picture statistics, which then walk runs instead of pixels.
  const aligned = rgba.byteOffset % 4 === 0;
  const words = aligned
    ? new Uint32Array(rgba.buffer, rgba.byteOffset, n)
    : new Uint32Array(Uint8Array.from(rgba.subarray(0, n * 4)).buffer);
  const runs = runScratch(n);
  const runColour = runs.colour;
  const runLength = runs.length;
  let count = 0;
  let sq = 0;
  let ink = 0;
  let prev = -1; // no input word is -1 (they are unsigned)
  let r = br;
  let g = bgG;
  let b = bb;
  let runSq = 0;
  let runInk = 0;
  let run = 0;
  for (let p = 0, o = 0; p < n; p++, o += 3) {
    let w = words[p]!;
    if (w < 0x01000000) w = 0; // alpha 0: the background, whatever the colour bytes say
    if (w !== prev) {
      if (run > 0) {
        runLength[count - 1] = run;
        sq += runSq * run;
        ink += runInk * run;
      }
      prev = w;
      run = 0;
      if (w === 0) {
        r = br;
        g = bgG;
        b = bb;
      } else {
        const a = w >>> 24;
        r = w & 0xff;
        g = (w >>> 8) & 0xff;
        b = (w >>> 16) & 0xff;
        if (a !== 255) {
          const ia = 255 - a;
          r = ((r * a + br * ia) / 255 + 0.5) | 0;
          g = ((g * a + bgG * ia) / 255 + 0.5) | 0;
          b = ((b * a + bb * ia) / 255 + 0.5) | 0;
        }
      }
      const dr = r - br;
      const dg = g - bgG;
      const db = b - bb;
      runSq = dr * dr + dg * dg + db * db;
      runInk =
        dr > INK_THRESHOLD ||
        dr < -INK_THRESHOLD ||
        dg > INK_THRESHOLD ||
        dg < -INK_THRESHOLD ||
        db > INK_THRESHOLD ||
        db < -INK_THRESHOLD
          ? 1
          : 0;
      runColour[count++] = (r << 16) | (g << 8) | b;
    }
    run++;
    if (w !== 0) {
      rgb[o] = r;
      rgb[o + 1] = g;
      rgb[o + 2] = b;
    }
  }
  if (run > 0) {
    runLength[count - 1] = run;
    sq += runSq * run;
    ink += runInk * run;
  }
  runs.count = count;
  // The 1-px border ring, walked once on its own (2·(w+h)−4 pixels, not n).
  let border = 0;
  let borderInk = 0;
  const visit = (x: number, y: number) => {
    border++;
    if (inked(rgb, (y * width + x) * 3, br, bgG, bb)) borderInk++;
  };
  for (let x = 0; x < width; x++) {
    visit(x, 0);
    if (height > 1) visit(x, height - 1);
  }
  for (let y = 1; y < height - 1; y++) {
    visit(0, y);
    if (width > 1) visit(width - 1, y);
  }
  return {
    rgb,
    stats: {
      mseVsBackground: n === 0 ? 0 : sq / (n * 3 * 255 * 255),
      inkCoverage: n === 0 ? 0 : ink / n,
      borderInk: border === 0 ? 0 : borderInk / border,
      overdraw: 0,
      picture: measurePictureRuns(rgb, width, height, INK_THRESHOLD, runs),
    },
  };
}
