// Flattens a straight-alpha RGBA raster onto an opaque background, in place, and measures
// it in the same pass: one walk over the pixels instead of a libvips flatten plus a second
// read (measured: libvips' flatten costs more than librsvg's rasterising of a typical
// icon). In place because most pixels of a drawing are either opaque (left as they are) or
// transparent (one 32-bit store of the background): no RGB copy is filled or written byte
// by byte. The PNG is then written from the colour runs (png-encode.ts).
import { type ColourRuns, measurePictureRuns, runScratch } from './picture-stats.ts';
import type { PixelStats } from './types.ts';

/** A channel difference above this (out of 255) counts as ink. */
export const INK_THRESHOLD = 8;

function inked(px: Uint8Array, o: number, br: number, bg: number, bb: number): boolean {
  return (
    Math.abs(px[o]! - br) > INK_THRESHOLD ||
    Math.abs(px[o + 1]! - bg) > INK_THRESHOLD ||
    Math.abs(px[o + 2]! - bb) > INK_THRESHOLD
  );
}

/** A flattened raster's statistics and its colour runs (which the PNG is written from). */
export interface Flattened {
  pixels: PixelStats;
  /** Runs of equal flattened colour in pixel order; valid until the next flatten. */
  runs: ColourRuns;
}

/**
 * Composites `rgba` (straight alpha, 4 bytes a pixel) onto the opaque background `bg` in
 * place — afterwards every pixel is opaque — and returns the picture's statistics.
 */
export function flattenInPlace(
  rgba: Uint8Array,
  width: number,
  height: number,
  bg: readonly [number, number, number],
): PixelStats {
  return flattenAndMeasure(rgba, width, height, bg).pixels;
}

/**
 * The share of the 1-px border ring that is ink, walked on its own (2·(w+h)−4 pixels, not n).
 * A function, not a closure inside flattenAndMeasure: V8 inlined one picture's closure and
 * bailed out ("wrong call target") on the next picture's (`node --trace-deopt`).
 */
function borderInkShare(
  rgba: Uint8Array,
  width: number,
  height: number,
  br: number,
  bg: number,
  bb: number,
): number {
  let border = 0;
  let borderInk = 0;
  for (let x = 0; x < width; x++) {
    border++;
    if (inked(rgba, x * 4, br, bg, bb)) borderInk++;
    if (height > 1) {
      border++;
      if (inked(rgba, ((height - 1) * width + x) * 4, br, bg, bb)) borderInk++;
    }
  }
  for (let y = 1; y < height - 1; y++) {
    border++;
    if (inked(rgba, y * width * 4, br, bg, bb)) borderInk++;
    if (width > 1) {
      border++;
      if (inked(rgba, (y * width + width - 1) * 4, br, bg, bb)) borderInk++;
    }
  }
  return border === 0 ? 0 : borderInk / border;
}

/** flattenInPlace, also returning the colour runs (in the process's shared scratch). */
export function flattenAndMeasure(
  rgba: Uint8Array,
  width: number,
  height: number,
  bg: readonly [number, number, number],
): Flattened {
  const n = width * height;
  const [br, bgG, bb] = bg;
  // Whole pixels as little-endian words (A in the top byte): one load per pixel. A pixel
  // equal to the one before (flat fills: most of a drawing) costs a compare; the statistics
  // are added once per run of equal input pixels, and the runs go on to the picture
  // statistics, which then walk runs instead of pixels. An unaligned view is copied in,
  // flattened and copied back (sharp's and resvg's buffers are aligned).
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
  for (let p = 0; p < n; ) {
    const w = words[p]!;
    // The run of input words equal to this one: a compare a pixel, nothing else.
    let q = p + 1;
    while (q < n && words[q] === w) q++;
    const run = q - p;
    const a = w >>> 24;
    let r = br;
    let g = bgG;
    let b = bb;
    if (a !== 0) {
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
    if (a !== 255) {
      // Not opaque: the run becomes its flattened colour (a long run is filled natively).
      const out = (0xff000000 | (b << 16) | (g << 8) | r) >>> 0;
      if (run > 8) words.fill(out, p, q);
      else for (let i = p; i < q; i++) words[i] = out;
    }
    const dr = r - br;
    const dg = g - bgG;
    const db = b - bb;
    sq += (dr * dr + dg * dg + db * db) * run;
    if (
      dr > INK_THRESHOLD ||
      dr < -INK_THRESHOLD ||
      dg > INK_THRESHOLD ||
      dg < -INK_THRESHOLD ||
      db > INK_THRESHOLD ||
      db < -INK_THRESHOLD
    )
      ink += run;
    runColour[count] = (r << 16) | (g << 8) | b;
    runLength[count++] = run;
    p = q;
  }
  runs.count = count;
  if (!aligned) rgba.set(new Uint8Array(words.buffer, 0, n * 4));
  const pixels: PixelStats = {
    mseVsBackground: n === 0 ? 0 : sq / (n * 3 * 255 * 255),
    inkCoverage: n === 0 ? 0 : ink / n,
    borderInk: borderInkShare(rgba, width, height, br, bgG, bb),
    overdraw: 0,
    picture: measurePictureRuns(rgba, width, height, INK_THRESHOLD, runs, 4),
  };
  return { pixels, runs };
}
