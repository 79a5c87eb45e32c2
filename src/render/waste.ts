// Ink that never reaches the picture, and scribble, from the shapes the overdraw walk sees
// (overdraw.ts reports each one in paint order). The clutter check weighs these instead of
// raw counts where it can: a dense real drawing (a city's 146 outlined windows, a firework's
// 25k smooth segments, a park's stacked scenery) spends its elements on visible marks, while
// a policy padding its answer spends them on
//   no ink: shapes hidden (display:none, opacity 0, no fill and no stroke), of zero area,
//     or entirely off the canvas;
//   duplicates: the same geometry at the same place again (a shape copied 500 times);
//   covered: shapes entirely under a later opaque shape (junk hidden under the background);
//   tangled strokes: unfilled strokes piled across each other (RULER's decorative strokes),
//     not strokes that each outline their own spot (windows, tiles);
//   jagged turns: vertices where a line doubles back (turns of more than 120°): noise
//     scribbled as a random walk turns that way once in three steps, a drawn curve rarely.
// Every figure is a count of elements or vertices; the check divides by its allowances.
import type { M, Pt } from './geometry.ts';
import type { SeenShape } from './overdraw.ts';
import { countPathSegments, countPointSegments } from './path-segments.ts';
import type { CodeWaste } from './types.ts';

/** Covering shapes tried per shape: the largest opaque ones (bounds the quadratic work). */
const MAX_COVERS = 200;
/** Stroked shapes compared pairwise for tangles (bounds the quadratic work). */
const MAX_STROKES = 3000;
/** Points of a shape tested for being inside a cover. */
const MAX_PROBES = 24;
/** Polygon edges visited testing covers, in all (a drawing of huge outlines stops early). */
const MAX_WORK = 500_000;

/** Up to MAX_PROBES of a shape's points, spread along its outlines. */
function sample(polys: Pt[][]): Pt[] {
  let n = 0;
  for (const poly of polys) n += poly.length;
  const step = Math.max(1, Math.floor(n / MAX_PROBES));
  const out: Pt[] = [];
  let k = 0;
  for (const poly of polys) for (const p of poly) if (k++ % step === 0) out.push(p);
  return out;
}

type Box = [number, number, number, number];

function boxOf(polys: Pt[][], pad = 0): Box | null {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const poly of polys)
    for (const [x, y] of poly) {
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  return x0 <= x1 ? [x0 - pad, y0 - pad, x1 + pad, y1 + pad] : null;
}

const within = (a: Box, b: Box) => a[0] >= b[0] && a[1] >= b[1] && a[2] <= b[2] && a[3] <= b[3];

/** Overlap area of two boxes (0 when they only touch). */
function overlap(a: Box, b: Box): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  return w > 0 && h > 0 ? w * h : 0;
}

function insidePoly([x, y]: Pt, poly: Pt[]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!;
    const [xj, yj] = poly[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Vertices where the line turns by more than 120° (it runs back the way it came). */
function jaggedTurns(poly: Pt[]): number {
  let n = 0;
  for (let k = 2; k < poly.length; k++) {
    const [a, b, c] = [poly[k - 2]!, poly[k - 1]!, poly[k]!];
    const ux = b[0] - a[0];
    const uy = b[1] - a[1];
    const vx = c[0] - b[0];
    const vy = c[1] - b[1];
    // cos(turn) < -0.5 without roots: dot < 0 and dot² > ¼ |u|² |v|² (zero steps never turn).
    const dot = ux * vx + uy * vy;
    if (dot < 0 && dot * dot > 0.25 * (ux * ux + uy * uy) * (vx * vx + vy * vy)) n++;
  }
  return n;
}

/** Same geometry at the same place, painted in the same role (fill and/or stroke). */
function copyKey(s: SeenShape): string {
  const a = s.attrs;
  const geo = ['d', 'x', 'y', 'width', 'height', 'cx', 'cy', 'r', 'rx', 'ry', 'points']
    .concat(['x1', 'y1', 'x2', 'y2'])
    .map((k) => a[k] ?? '')
    .join('|');
  const m = (s.m as M).map((v) => v.toFixed(3)).join(',');
  // The element's own paint too: a gradient laid over the same outline is a layer, not a copy.
  const paint = `${a.fill ?? ''}|${a.stroke ?? ''}|${a.style ?? ''}`;
  return `${s.tag}|${s.fill ? 'F' : ''}${s.stroke ? 'S' : ''}|${m}|${geo}|${paint}`;
}

/** Path segments of a written element, counted as the walker counts them (walker.ts). */
function segmentsOf(s: SeenShape): number {
  const a = s.attrs;
  if (s.tag === 'path') return countPathSegments(a.d ?? '');
  if (s.tag === 'polyline' || s.tag === 'polygon')
    return countPointSegments(a.points ?? '', s.tag === 'polygon');
  return s.tag === 'line' ? 1 : 0;
}

/** The waste figures of one document, from the shapes in paint order. */
export function measureWaste(shapes: SeenShape[]): CodeWaste {
  let noInk = 0;
  let duplicates = 0;
  let covered = 0;
  let jagged = 0;
  let segments = 0;
  let coveredSegments = 0;
  const hiddenSegs = new Set<Record<string, string>>();
  const keys = new Set<string>();
  const counted = new Set<Record<string, string>>();
  const inked: { s: SeenShape; box: Box; order: number }[] = [];
  shapes.forEach((s, order) => {
    const ink =
      (s.fill ? s.fillArea * s.fillAlpha : 0) + (s.stroke ? s.strokeArea * s.strokeAlpha : 0);
    // Segments are counted for every shape walked (off the canvas too): what is left is
    // in what the walk does not see (nested documents, hidden subtrees).
    const first = !counted.has(s.attrs);
    if (first) {
      counted.add(s.attrs);
      segments += segmentsOf(s);
    }
    if (s.hidden || !(ink > 0)) {
      noInk += s.elements ?? 1;
      return;
    }
    const key = copyKey(s);
    if (keys.has(key)) duplicates++;
    else keys.add(key);
    // Counted once per element as written (like the walker's segments): <use> copies of a
    // star are the 240 stars a prompt asked for, not scribble.
    if (first) for (const poly of s.polys) jagged += jaggedTurns(poly);
    const box = boxOf(s.polys);
    if (box) inked.push({ s, box, order });
  });
  // Covers: opaque filled closed shapes drawn as one outline, largest first.
  const covers = inked
    .filter(
      ({ s }) => s.fill && !s.fillRef && s.closed && s.polys.length === 1 && s.fillAlpha >= 0.999,
    )
    .sort((a, b) => b.s.fillArea - a.s.fillArea)
    .slice(0, MAX_COVERS);
  let work = 0;
  for (const { s, box, order } of inked) {
    if (work > MAX_WORK) break; // `covered` is then a lower bound
    const probes = sample(s.polys);
    const hit = covers.some((c) => {
      if (c.order <= order || !within(box, c.box)) return false;
      const cover = c.s.polys[0]!;
      for (const p of probes) {
        work += cover.length;
        if (!insidePoly(p, cover)) return false;
      }
      return true;
    });
    if (hit) {
      covered++;
      if (!hiddenSegs.has(s.attrs)) {
        hiddenSegs.add(s.attrs);
        coveredSegments += segmentsOf(s);
      }
    }
  }
  // Tangled strokes: unfilled strokes whose bounds overlap three or more others' by a
  // real share (a tenth of the smaller box), i.e. strokes piled across each other.
  const stroked = inked.filter(({ s }) => s.stroke && !(s.fill && s.closed));
  const strokes = stroked.slice(0, MAX_STROKES).map(({ box }) => box);
  const apart = new Set<Record<string, string>>();
  const area = (b: Box) => Math.max((b[2] - b[0]) * (b[3] - b[1]), 1e-9);
  let tangled = 0;
  for (let i = 0; i < strokes.length; i++) {
    let crossings = 0;
    for (let j = 0; j < strokes.length && crossings < 3; j++) {
      if (i === j) continue;
      const o = overlap(strokes[i]!, strokes[j]!);
      if (o > 0.1 * Math.min(area(strokes[i]!), area(strokes[j]!))) crossings++;
    }
    if (crossings >= 3) tangled++;
    else apart.add(stroked[i]!.s.attrs);
  }
  return {
    noInk,
    duplicates,
    covered,
    tangledStrokes: tangled,
    strokesApart: apart.size,
    jaggedTurns: jagged,
    segmentsSeen: segments,
    coveredSegments,
  };
}
