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
   * Share of the border ring cut by the frame: the pixel's region of gradually changing
   * colour does not reach the opposite edge, and its row (left/right edge) or column
   * (top/bottom) is not a band (≥ BAND_SHARE ink, mostly of the pixel's own colour).
   */
  edgeCut: number;
  /**
   * The largest share of the ring cut through one region: one shape sliced by the frame.
   * A pattern or tiling running off the frame is cut into many small pieces instead.
   */
  edgeCutLargest: number;
  /** How many regions the frame cuts (scenery included: a pattern is counted whole). */
  edgeCutRegions: number;
  /** Cut pixels per edge (of the sampled ring): top, right, bottom, left. */
  edgeCutBySide: [number, number, number, number];
  /**
   * Share of the ring on regions the frame cuts that are scenery, not a subject (sceneryCut:
   * broad along the edge, or a strip hugging it); not counted in edgeCut.
   */
  edgeScenery: number;
  /**
   * Share of the ring's perimeter between the first and the last pixel the frame cuts
   * (scenery included), the shortest way round: a tiling runs all round the frame, the
   * parts of one subject sit together on a stretch of it.
   */
  edgeCutSpread: number;
}

/** A row or column this inked is a band across the canvas (ground strip, deck, horizon). */
export const BAND_SHARE = 0.9;
/** Neighbours differing by at most this (max channel) belong to one region (gradients stay whole). */
export const REGION_STEP = 24;
/**
 * A band's pixels may vary by this much (max channel) from the edge pixel: flat shading,
 * not a gradient sky that passes near a subject's colour.
 */
export const BAND_TOLERANCE = 16;
/** The frame analysis runs on a sampled copy at most this many pixels a side. */
export const EDGE_GRID = 128;

/**
 * A raster as runs of equal colour in pixel order (colour packed as r<<16 | g<<8 | b): the
 * whole-canvas statistics walk runs, not pixels. Drawings are mostly flat fills, so a 512²
 * canvas is a few thousand runs; the flatten pass (pixel-stats.ts) emits them as it goes.
 */
export interface ColourRuns {
  colour: Int32Array;
  length: Int32Array;
  count: number;
}

// Scratch reused by every measurement in this process: fresh multi-MB arrays per render
// would cost a page-fault walk each time. The runs are consumed before the next call.
let scratchColour = new Int32Array(0);
let scratchLength = new Int32Array(0);

// The other per-measurement arrays, reused the same way (measurement is synchronous, so no
// two measurements share one). Zeroed when the caller needs zeros.
const scratch = {
  counts: new Uint32Array(4096),
  sums: new Float64Array(4096 * 3),
  small: new Uint8Array(0),
  ink: new Uint8Array(0),
  region: new Int32Array(0),
  stack: new Int32Array(0),
};
function reused<K extends 'small' | 'ink' | 'region' | 'stack'>(
  key: K,
  n: number,
  zero: boolean,
): (typeof scratch)[K] {
  let a = scratch[key];
  if (a.length < n) {
    a = new (a.constructor as new (n: number) => (typeof scratch)[K])(n);
    scratch[key] = a;
  } else if (zero) {
    a.fill(0, 0, n);
  }
  return a.subarray(0, n) as (typeof scratch)[K];
}

/**
 * Pictures up to this many pixels (1024², 8 MB of runs) share the scratch; a larger one gets
 * arrays of its own, so one huge render does not pin their memory in the worker for good.
 */
const SHARED_RUNS_MAX = 1024 * 1024;

/** Room for `n` runs: the shared scratch (see ColourRuns), or fresh arrays when n is large. */
export function runScratch(n: number): ColourRuns {
  if (n > SHARED_RUNS_MAX)
    return { colour: new Int32Array(n), length: new Int32Array(n), count: 0 };
  if (scratchColour.length < n) {
    scratchColour = new Int32Array(n);
    scratchLength = new Int32Array(n);
  }
  return { colour: scratchColour, length: scratchLength, count: 0 };
}

/** The runs of an RGB raster, for callers that did not build them while flattening. */
export function colourRuns(rgb: Uint8Array, n: number): ColourRuns {
  const runs = runScratch(n);
  let count = 0;
  let prev = -1;
  for (let o = 0; o < n * 3; o += 3) {
    const c = (rgb[o]! << 16) | (rgb[o + 1]! << 8) | rgb[o + 2]!;
    if (c === prev) {
      runs.length[count - 1]!++;
    } else {
      runs.colour[count] = c;
      runs.length[count] = 1;
      count++;
      prev = c;
    }
  }
  runs.count = count;
  return runs;
}

/** `inkThreshold`: a channel difference above this (out of 255) is ink (pixel-stats.ts's). */
export function measurePicture(
  rgb: Uint8Array,
  width: number,
  height: number,
  inkThreshold: number,
): PictureStats {
  return measurePictureRuns(rgb, width, height, inkThreshold, colourRuns(rgb, width * height));
}

/**
 * measurePicture with the raster's colour runs already known (flattenInPlace has them);
 * `px` holds `channels` bytes a pixel, RGB first (3, or 4 for flattened RGBA).
 */
export function measurePictureRuns(
  px: Uint8Array,
  width: number,
  height: number,
  inkThreshold: number,
  runs: ColourRuns,
  channels: 3 | 4 = 3,
): PictureStats {
  const n = width * height;
  const empty: PictureStats = {
    dominant: [255, 255, 255],
    dominantShare: 0,
    ink: 0,
    edgeInk: 0,
    edgeCut: 0,
    edgeCutLargest: 0,
    edgeCutRegions: 0,
    edgeCutBySide: [0, 0, 0, 0],
    edgeScenery: 0,
    edgeCutSpread: 0,
  };
  if (n === 0) return empty;
  // 1. Dominant colour: histogram over 4-bit bins, then the mean of the largest bin, from
  // the runs (each bin keeps its channel sums, so no second walk is needed for the mean).
  const counts = scratch.counts.fill(0);
  const sums = scratch.sums.fill(0); // exact integers for any canvas size
  const { colour, length } = runs;
  for (let i = 0; i < runs.count; i++) {
    const c = colour[i]!;
    const len = length[i]!;
    const r = c >>> 16;
    const g = (c >>> 8) & 0xff;
    const b = c & 0xff;
    const k = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
    counts[k]! += len;
    sums[k * 3]! += r * len;
    sums[k * 3 + 1]! += g * len;
    sums[k * 3 + 2]! += b * len;
  }
  let best = 0;
  for (let b = 1; b < 4096; b++) if (counts[b]! > counts[best]!) best = b;
  const c = counts[best]!;
  const dr = Math.round(sums[best * 3]! / c);
  const dg = Math.round(sums[best * 3 + 1]! / c);
  const db = Math.round(sums[best * 3 + 2]! / c);
  // 2. Ink against it, run by run.
  let total = 0;
  for (let i = 0; i < runs.count; i++) {
    const c = colour[i]!;
    if (
      Math.abs((c >>> 16) - dr) > inkThreshold ||
      Math.abs(((c >>> 8) & 0xff) - dg) > inkThreshold ||
      Math.abs((c & 0xff) - db) > inkThreshold
    )
      total += length[i]!;
  }
  // 3. The frame, on a point-sampled copy at most EDGE_GRID pixels a side: regions are
  // flooded over the whole picture, which at 512² costs more than the render's own pixel
  // pass; a cut subject is far larger than one sampled step.
  const small = sample(px, channels, width, height, EDGE_GRID);
  const e = edgeStats(small.rgb, small.width, small.height, [dr, dg, db], inkThreshold);
  return {
    dominant: [dr, dg, db],
    dominantShare: c / n,
    ink: total / n,
    ...e,
  };
}

/** Nearest-pixel sample as RGB, first and last rows and columns included. */
function sample(px: Uint8Array, channels: 3 | 4, width: number, height: number, max: number) {
  if (width <= max && height <= max && channels === 3) return { rgb: px, width, height };
  const w = Math.min(width, max);
  const h = Math.min(height, max);
  const out = reused('small', w * h * 3, false); // every byte is written below
  for (let j = 0; j < h; j++) {
    const y = h === 1 ? 0 : Math.round((j * (height - 1)) / (h - 1));
    for (let i = 0; i < w; i++) {
      const x = w === 1 ? 0 : Math.round((i * (width - 1)) / (w - 1));
      const o = (y * width + x) * channels;
      const q = (j * w + i) * 3;
      out[q] = px[o]!;
      out[q + 1] = px[o + 1]!;
      out[q + 2] = px[o + 2]!;
    }
  }
  return { rgb: out, width: w, height: h };
}

/**
 * Marks the ink pixels (away from the dominant colour) and counts them per row and column.
 * A function of its own, not a loop inside edgeStats: V8 compiled that loop on-stack (OSR)
 * during the first picture, before anything after it had run, and re-entered the cached code
 * on every later picture only to bail out right after the loop ("insufficient type feedback"
 * at the next call), leaving the rest of edgeStats to the interpreter — 177 bail-outs in 600
 * Fluent Emoji renders (`node --trace-deopt`). A small function is compiled whole.
 */
function markInk(
  rgb: Uint8Array,
  width: number,
  n: number,
  dr: number,
  dg: number,
  db: number,
  inkThreshold: number,
  ink: Uint8Array,
  rowInk: Uint32Array,
  colInk: Uint32Array,
): void {
  for (let p = 0, o = 0; p < n; p++, o += 3) {
    if (
      Math.abs(rgb[o]! - dr) > inkThreshold ||
      Math.abs(rgb[o + 1]! - dg) > inkThreshold ||
      Math.abs(rgb[o + 2]! - db) > inkThreshold
    ) {
      ink[p] = 1;
      rowInk[(p / width) | 0]!++;
      colInk[p % width]!++;
    }
  }
}

function edgeStats(
  rgb: Uint8Array,
  width: number,
  height: number,
  [dr, dg, db]: [number, number, number],
  inkThreshold: number,
): Pick<
  PictureStats,
  | 'edgeInk'
  | 'edgeCut'
  | 'edgeCutLargest'
  | 'edgeCutRegions'
  | 'edgeCutBySide'
  | 'edgeScenery'
  | 'edgeCutSpread'
> {
  const n = width * height;
  const ink = reused('ink', n, true);
  const rowInk = new Uint32Array(height);
  const colInk = new Uint32Array(width);
  markInk(rgb, width, n, dr, dg, db, inkThreshold, ink, rowInk, colInk);
  // 3. The border ring. Every edge pixel belongs to a region: 4-connected pixels whose
  // colour changes gradually (≤ REGION_STEP per step, so gradients stay whole and hard
  // edges separate) and that are all ink or all ground: a pale subject on a pale ground
  // (white petals on cream) would otherwise join the ground through its antialiased rim
  // and, reaching the opposite edge with it, never be cut (issue 25). A region reaching the opposite edge is a band, a ground or the
  // background itself; so is a line (row or column) through the pixel that is ≥ BAND_SHARE
  // ink and mostly of the pixel's colour (a deck cut into planks), and a speck too small to
  // matter on such a line. Whatever else touches the frame is cut by it. Ink is not required
  // of the region: when a flat subject is the most common colour (over a gradient sky), it
  // is still cut.
  const region = reused('region', n, true); // 0 = not visited; k = region id
  const spans: boolean[] = [false];
  const sizes: number[] = [0];
  const boxes: [number, number, number, number][] = [[0, 0, 0, 0]];
  const stack = reused('stack', n, false); // each pixel is pushed at most once (labelled on push)
  const flood = (start: number): void => {
    const id = spans.length;
    let x0 = width;
    let x1 = -1;
    let y0 = height;
    let y1 = -1;
    let size = 0;
    region[start] = id;
    stack[0] = start;
    let top = 1;
    while (top > 0) {
      const p = stack[--top]!;
      size++;
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
        if (q < 0 || region[q] !== 0 || ink[q] !== ink[p]) continue;
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
    spans.push((x0 === 0 && x1 === width - 1) || (y0 === 0 && y1 === height - 1));
    sizes.push(size);
    boxes.push([x0, y0, x1, y1]);
  };
  // A line is a band for this edge pixel when most of it has the pixel's own colour: a line
  // inked by a gradient background is not a band for a subject cut on it.
  const bandOfItsColour = (p: number, first: number, stride: number, len: number): boolean => {
    const [r, g, b] = [rgb[p * 3]!, rgb[p * 3 + 1]!, rgb[p * 3 + 2]!];
    let same = 0;
    for (let k = 0, q = first; k < len; k++, q += stride) {
      const o = q * 3;
      if (
        Math.abs(rgb[o]! - r) <= BAND_TOLERANCE &&
        Math.abs(rgb[o + 1]! - g) <= BAND_TOLERANCE &&
        Math.abs(rgb[o + 2]! - b) <= BAND_TOLERANCE
      )
        same++;
    }
    return same >= len / 2;
  };
  let ring = 0;
  let ringInk = 0;
  // The region each cut ring pixel belongs to, in perimeter order (clockwise from the top
  // left corner), for the spread of the cut round the frame.
  const perimeter = width > 1 && height > 1 ? 2 * (width - 1) + 2 * (height - 1) : 0;
  const around = new Int32Array(perimeter);
  const perimeterIndex = (x: number, y: number, side: 0 | 1 | 2 | 3): number =>
    side === 0
      ? x
      : side === 1
        ? width - 1 + y
        : side === 2
          ? width - 1 + height - 1 + (width - 1 - x)
          : 2 * (width - 1) + height - 1 + (height - 1 - y);
  // Cut ring pixels per region and side: the region's chord on each edge of the frame.
  const chords = new Map<number, [number, number, number, number]>();
  const edge = (x: number, y: number, side: 0 | 1 | 2 | 3) => {
    ring++;
    const p = y * width + x;
    if (!ink[p]) return; // the ground itself
    ringInk++;
    if (region[p] === 0) flood(p);
    const id = region[p]!;
    if (spans[id]) return;
    const vertical = side === 0 || side === 2;
    const len = vertical ? height : width;
    const line = (vertical ? colInk[x]! : rowInk[y]!) / len;
    if (
      line >= BAND_SHARE &&
      (sizes[id]! < len / 8 ||
        bandOfItsColour(p, vertical ? x : y * width, vertical ? width : 1, len))
    )
      return;
    let c = chords.get(id);
    if (!c) {
      c = [0, 0, 0, 0];
      chords.set(id, c);
    }
    c[side]++;
    if (perimeter > 0) around[perimeterIndex(x, y, side)] = id;
  };
  for (let x = 0; x < width; x++) {
    edge(x, 0, 0);
    if (height > 1) edge(x, height - 1, 2);
  }
  for (let y = 1; y < height - 1; y++) {
    edge(0, y, 3);
    if (width > 1) edge(width - 1, y, 1);
  }
  // Which of the regions the frame cuts are scenery rather than a subject (see sceneryCut).
  let ringCut = 0;
  let largest = 0;
  let scenery = 0;
  const bySide: [number, number, number, number] = [0, 0, 0, 0];
  for (const [id, c] of chords) {
    const total = c[0] + c[1] + c[2] + c[3];
    if (sceneryCut(boxes[id]!, c, width, height, sizes[id]!)) {
      scenery += total;
      continue;
    }
    ringCut += total;
    for (let k = 0; k < 4; k++) bySide[k]! += c[k]!;
    if (total > largest) largest = total;
  }
  return {
    edgeCutSpread: perimeter === 0 ? 0 : cutSpread(around),
    edgeInk: ring === 0 ? 0 : ringInk / ring,
    edgeCut: ring === 0 ? 0 : ringCut / ring,
    edgeCutLargest: ring === 0 ? 0 : largest / ring,
    edgeCutRegions: chords.size,
    edgeCutBySide: bySide,
    edgeScenery: ring === 0 ? 0 : scenery / ring,
  };
}

/**
 * The shortest share of the perimeter that holds every marked (non-zero) position: one minus
 * the longest unmarked gap, the perimeter read as a circle. 0 when nothing is marked.
 */
export function cutSpread(around: Int32Array): number {
  const n = around.length;
  let first = -1;
  let last = -1;
  let gap = 0;
  for (let i = 0; i < n; i++) {
    if (around[i] === 0) continue;
    if (first < 0) first = i;
    else gap = Math.max(gap, i - last - 1);
    last = i;
  }
  if (first < 0) return 0;
  gap = Math.max(gap, n - 1 - last + first);
  return (n - gap) / n;
}

/** A region cut along at least this share of the frame's side is scenery (ground, wall, drape). */
export const SCENERY_BREADTH = 0.75;
/**
 * A region reaching into the canvas less than this share of its chord is a strip along the
 * edge. 0.1, not 0.2: a subject pushed almost out of the frame leaves a sliver about a fifth as
 * deep as its cut (a battery, a cloud off the top), while borders and kerbs are far flatter.
 */
export const STRIP_DEPTH = 0.1;
/**
 * A region whose cut covers less than this share of its own extent along that side is grazed
 * by the frame, not sliced: the bottom of a padlock, the feet of a tower or a house, a cap's
 * brim drawn up to the drawing's own edge. A subject pushed out of the frame is cut through
 * its body, so its chord is about as long as it is wide there.
 */
export const GRAZE_SHARE = 0.25;
/**
 * A region reaching from the side it is cut on to within this share of the opposite side
 * fills the canvas that way: a card, a panel or a tower drawn edge to edge, not a subject
 * pushed out of the frame (whose visible part is what is left inside).
 */
export const FAR_REACH = 0.9;
/**
 * A region covering less than this share of its bounding box is a line — an outline, a frame,
 * a ray, a drape's fold, a card's edge drawn to the frame — not a body cut by it.
 */
export const LINE_FILL = 0.06;

/**
 * Whether a region the frame cuts is scenery: broad along the edge it is cut on (a ground
 * strip, a wall, a drape, a sky or a band that stops short of the far edge: its extent along
 * that side reaches SCENERY_BREADTH of it), or a strip hugging the edge (a border, a frame, a
 * bevel, a kerb: it reaches into the canvas less than STRIP_DEPTH of the length it is cut
 * over). A subject pushed over the edge is neither: a compact shape whose cut is about as
 * long as the part left inside is deep. Nor is a region the frame only grazes (its chord is
 * under GRAZE_SHARE of its extent along that side: a rim or feet drawn to the drawing's own
 * edge) or one that reaches FAR_REACH of the way to the opposite side (a card, a tower drawn
 * edge to edge). Judged on the side with the longest cut. A line (the region covers under
 * LINE_FILL of its box: an outline, a frame) is not a body: a subject with an outline is still
 * cut through its fill.
 */
export function sceneryCut(
  [x0, y0, x1, y1]: [number, number, number, number],
  chord: [number, number, number, number],
  width: number,
  height: number,
  size = Number.POSITIVE_INFINITY,
): boolean {
  if (size < LINE_FILL * (x1 - x0 + 1) * (y1 - y0 + 1)) return true;
  let side = 0;
  for (let k = 1; k < 4; k++) if (chord[k]! > chord[side]!) side = k;
  const horizontalEdge = side === 0 || side === 2;
  const along = horizontalEdge ? (x1 - x0 + 1) / width : (y1 - y0 + 1) / height;
  if (along >= SCENERY_BREADTH) return true;
  const depth = side === 0 ? y1 + 1 : side === 2 ? height - y0 : side === 3 ? x1 + 1 : width - x0;
  // One sampled pixel deep (≈ 4 px of 512) is a line along the frame, whatever its length.
  if (depth <= 1 || depth < STRIP_DEPTH * chord[side]!) return true;
  const extent = horizontalEdge ? x1 - x0 + 1 : y1 - y0 + 1;
  if (chord[side]! < GRAZE_SHARE * extent) return true;
  return depth >= FAR_REACH * (horizontalEdge ? height : width);
}
