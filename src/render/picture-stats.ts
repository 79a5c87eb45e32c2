// What the checks need to know about a picture beyond "differs from the paper colour":
// the picture's own ground (its dominant colour), how much of the canvas differs from it,
// and which ink on the canvas edge belongs to something cut by the frame rather than to a
// band that runs across the canvas by design (sky, ground, sea, road, bridge deck).
// Measured on the flattened RGB raster inside the render worker, so no check decodes PNGs.
//
// Why the dominant colour: LLM illustrations paint a full-bleed background far more often
// than not, so "ink against white" is ~100% for most of them and says nothing; ink against
// the picture's own ground says how much was drawn on it.

export interface PictureStats {
  /** The most common colour (4-bit-per-channel bins; the mean colour of the largest bin). */
  dominant: [number, number, number];
  /** Share of the canvas the dominant bin covers. */
  dominantShare: number;
  /** Share of pixels differing visibly (> the ink threshold in a channel) from the dominant colour. */
  ink: number;
  /** Share of the 1-px border ring that is ink against the dominant colour. */
  edgeInk: number;
  /**
   * Share of the border ring that is ink *not* explained by a band: the pixel's row (on the
   * left/right edge) or column (top/bottom) is not ≥ BAND_SHARE ink, and the region of
   * similar colour it belongs to does not reach the opposite edge.
   */
  edgeCut: number;
  /** Cut pixels per edge: top, right, bottom, left. */
  edgeCutBySide: [number, number, number, number];
}

/** A row or column this inked is a band across the canvas (ground strip, deck, horizon). */
export const BAND_SHARE = 0.9;
/** Neighbours differing by at most this (max channel) belong to one region (gradients stay whole). */
export const REGION_STEP = 24;

/** `inkThreshold`: a channel difference above this (out of 255) is ink (pixel-stats.ts's). */
export function measurePicture(
  rgb: Uint8Array,
  width: number,
  height: number,
  inkThreshold: number,
): PictureStats {
  const n = width * height;
  const empty: PictureStats = {
    dominant: [255, 255, 255],
    dominantShare: 0,
    ink: 0,
    edgeInk: 0,
    edgeCut: 0,
    edgeCutBySide: [0, 0, 0, 0],
  };
  if (n === 0) return empty;
  // 1. Dominant colour: histogram over 4-bit bins, then the mean of the largest bin.
  const bin = (o: number) => ((rgb[o]! >> 4) << 8) | ((rgb[o + 1]! >> 4) << 4) | (rgb[o + 2]! >> 4);
  const counts = new Uint32Array(4096);
  for (let o = 0; o < n * 3; o += 3) counts[bin(o)]!++;
  let best = 0;
  for (let b = 1; b < 4096; b++) if (counts[b]! > counts[best]!) best = b;
  let sr = 0;
  let sg = 0;
  let sb = 0;
  for (let o = 0; o < n * 3; o += 3) {
    if (bin(o) !== best) continue;
    sr += rgb[o]!;
    sg += rgb[o + 1]!;
    sb += rgb[o + 2]!;
  }
  const c = counts[best]!;
  const dr = Math.round(sr / c);
  const dg = Math.round(sg / c);
  const db = Math.round(sb / c);
  // 2. Ink against it, per pixel, with per-row and per-column totals for the band test.
  const ink = new Uint8Array(n);
  const rowInk = new Uint32Array(height);
  const colInk = new Uint32Array(width);
  let total = 0;
  for (let p = 0, o = 0; p < n; p++, o += 3) {
    if (
      Math.abs(rgb[o]! - dr) > inkThreshold ||
      Math.abs(rgb[o + 1]! - dg) > inkThreshold ||
      Math.abs(rgb[o + 2]! - db) > inkThreshold
    ) {
      ink[p] = 1;
      total++;
      rowInk[(p / width) | 0]!++;
      colInk[p % width]!++;
    }
  }
  // 3. The border ring: ink pixels not on a band line are candidates; a candidate is still
  // by design when its region (4-connected ink of gradually changing colour) spans the
  // canvas from one edge to the opposite one.
  const region = new Int32Array(n); // 0 = not visited; k = region id
  const spans: boolean[] = [false];
  const stack = new Int32Array(n); // each pixel is pushed at most once (labelled on push)
  const flood = (start: number): boolean => {
    const id = spans.length;
    let x0 = width;
    let x1 = -1;
    let y0 = height;
    let y1 = -1;
    region[start] = id;
    stack[0] = start;
    let top = 1;
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % width;
      const y = (p - x) / width;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      const o = p * 3;
      const r = rgb[o]!;
      const g = rgb[o + 1]!;
      const b = rgb[o + 2]!;
      for (let k = 0; k < 4; k++) {
        let q: number;
        if (k === 0) q = x > 0 ? p - 1 : -1;
        else if (k === 1) q = x < width - 1 ? p + 1 : -1;
        else if (k === 2) q = y > 0 ? p - width : -1;
        else q = y < height - 1 ? p + width : -1;
        if (q < 0 || ink[q] === 0 || region[q] !== 0) continue;
        const oq = q * 3;
        if (
          Math.abs(rgb[oq]! - r) > REGION_STEP ||
          Math.abs(rgb[oq + 1]! - g) > REGION_STEP ||
          Math.abs(rgb[oq + 2]! - b) > REGION_STEP
        )
          continue;
        region[q] = id;
        stack[top++] = q;
      }
    }
    const spanning = (x0 === 0 && x1 === width - 1) || (y0 === 0 && y1 === height - 1);
    spans.push(spanning);
    return spanning;
  };
  let ring = 0;
  let ringInk = 0;
  let ringCut = 0;
  const bySide: [number, number, number, number] = [0, 0, 0, 0];
  const edge = (x: number, y: number, side: 0 | 1 | 2 | 3) => {
    ring++;
    const p = y * width + x;
    if (!ink[p]) return;
    ringInk++;
    const line = side === 0 || side === 2 ? colInk[x]! / height : rowInk[y]! / width;
    if (line >= BAND_SHARE) return;
    const spanning = region[p] === 0 ? flood(p) : spans[region[p]!]!;
    if (spanning) return;
    ringCut++;
    bySide[side]++;
  };
  for (let x = 0; x < width; x++) {
    edge(x, 0, 0);
    if (height > 1) edge(x, height - 1, 2);
  }
  for (let y = 1; y < height - 1; y++) {
    edge(0, y, 3);
    if (width > 1) edge(width - 1, y, 1);
  }
  return {
    dominant: [dr, dg, db],
    dominantShare: c / n,
    ink: total / n,
    edgeInk: ring === 0 ? 0 : ringInk / ring,
    edgeCut: ring === 0 ? 0 : ringCut / ring,
    edgeCutBySide: bySide,
  };
}
