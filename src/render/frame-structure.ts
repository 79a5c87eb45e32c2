// Who owns the frame, from the SVG's structure (issue 40): points sampled along the edge of
// the viewBox, each given to the topmost opaque filled shape there (frame-shapes.ts says what
// that shape is: a subject, background, band, scenery, close-up, light or texture). Light and
// texture do not hide what is under them, so a ray over a cut subject leaves the subject
// the owner. A subject drawn inside a column or a drape (a capital, a tie-back) belongs to
// it. The `clipped` check flags a cut only where the pixels show one *and* a subject owns a
// run of the frame this long; text is judged apart: a line of text whose estimated extent
// runs off the frame is cut, whatever lies under it (even a pattern).

import { readCloseUp } from './close-up.ts';
import { type FrameShape, frameShapes, type ShapeClass } from './frame-shapes.ts';
import { lineArtCut } from './frame-strokes.ts';
import type { ShapeMemo } from './overdraw.ts';
import { inside, RowHit } from './shape-hit.ts';
import { textsOffFrame } from './text-off-frame.ts';
import type { CodeFrame } from './types.ts';
import type { XNode } from './walker.ts';

/** Points sampled per side of the frame. */
export const FRAME_POINTS = 128;
/** Subject pieces owning the frame for a tiling (as the pixel rule's PATTERN_REGIONS)… */
export const TILING_SHAPES = 12;
/** …none owning this share of their points. */
export const TILING_DOMINANCE = 0.25;
/** Within this share of its own size one box holds another (layers of one piece). */
export const NESTED_TOL = 0.02;

const OPAQUE: Record<ShapeClass, boolean> = {
  subject: true,
  background: true,
  band: true,
  scenery: true,
  closeup: true,
  flush: true,
  light: false,
  texture: false,
};

const within = (a: FrameShape['box'], b: FrameShape['box']): boolean => {
  const mx = 0.2 * (b[2] - b[0]);
  const my = 0.2 * (b[3] - b[1]);
  return a[0] >= b[0] - mx && a[2] <= b[2] + mx && a[1] >= b[1] - my && a[3] <= b[3] + my;
};

/**
 * The class owning one point: topmost opaque shape (a subject inside scenery is scenery, and
 * scenery painted on a subject of its own part is that subject).
 * `rows`, for a point on a horizontal side, holds each shape's crossing edges on its line.
 */
function ownerAt(
  shapes: FrameShape[],
  x: number,
  y: number,
  who: (s: FrameShape) => void = () => {},
  rows?: RowHit[],
): ShapeClass | 'none' | 'cut' {
  let translucent: ShapeClass | 'none' = 'none';
  for (let i = shapes.length - 1; i >= 0; i--) {
    const s = shapes[i]!;
    if (!(rows ? rows[i]!.at(x) : inside(s, x, y))) continue;
    if (!OPAQUE[s.cls]) {
      if (translucent === 'none') translucent = s.cls;
      continue;
    }
    if (s.cls === 'scenery') {
      // A marking painted on a subject of its own part (a stripe along a fuselage, a plank on
      // a hull) is that subject, cut with it: it must not split the subject's run in two.
      for (let k = i - 1; k >= 0; k--) {
        const under = shapes[k]!;
        if (!OPAQUE[under.cls] || !(rows ? rows[k]!.at(x) : inside(under, x, y))) continue;
        if (under.cls === 'subject' && under.group === s.group && within(s.box, under.box)) {
          who(under);
          return under.runsPast ? 'cut' : 'subject';
        }
        break;
      }
    }
    if (s.cls !== 'subject') return s.cls;
    for (let k = i - 1; k >= 0; k--) {
      const under = shapes[k]!;
      if (!OPAQUE[under.cls] || !(rows ? rows[k]!.at(x) : inside(under, x, y))) continue;
      if (under.cls === 'scenery' && within(s.box, under.box)) return 'scenery';
      break;
    }
    who(s);
    return s.runsPast ? 'cut' : 'subject';
  }
  return translucent;
}

/** The structural reading of the frame for one parsed document (its root `<svg>` node). */
export function measureFrame(root: XNode, memo?: ShapeMemo): CodeFrame {
  const { shapes, frame, strokes } = frameShapes(root, memo);
  const lineArt = lineArtCut(strokes, shapes, frame);
  const [vx, vy, vw, vh] = frame;
  // Only shapes reaching the frame can own a point on it.
  const ex = vw / (2 * FRAME_POINTS);
  const ey = vh / (2 * FRAME_POINTS);
  const near = shapes.filter(
    (s) =>
      s.box[0] <= vx + ex ||
      s.box[1] <= vy + ey ||
      s.box[2] >= vx + vw - ex ||
      s.box[3] >= vy + vh - ey,
  );
  const owners: (ShapeClass | 'none' | 'cut')[] = [];
  // How many subject shapes own the frame, and the most any one owns: a tiling drawn past
  // the edge is cut into many shapes, none owning much; a subject is a few large ones.
  const bySubject = new Map<FrameShape, number>();
  // The part owning each point a cut subject owns (null elsewhere): a figure's legs are one cut.
  const parts: (number | null)[] = [];
  let part: number | null = null;
  const who = (s: FrameShape) => {
    bySubject.set(s, (bySubject.get(s) ?? 0) + 1);
    part = s.group;
  };
  const push = (o: ShapeClass | 'none' | 'cut') => {
    owners.push(o);
    parts.push(o === 'cut' ? part : null);
    part = null;
  };
  const n = FRAME_POINTS;
  // Each side's points share one line: only shapes whose box crosses it can hold one of
  // them (inside() refuses the rest on the same box test), so each side reads its own list.
  const across = (y: number) => near.filter((s) => !(y < s.box[1] || y > s.box[3]));
  const down = (x: number) => near.filter((s) => !(x < s.box[0] || x > s.box[2]));
  const [top, right, bottom, left] = [vy + ey / 2, vx + vw - ex / 2, vy + vh - ey / 2, vx + ex / 2];
  // Clockwise from the top-left corner, half a step inside the frame.
  // On a horizontal side each shape's edges crossing the line are found once (RowHit).
  const onTop = across(top);
  const topRows = onTop.map((s) => new RowHit(s, top));
  for (let i = 0; i < n; i++) push(ownerAt(onTop, vx + ((i + 0.5) * vw) / n, top, who, topRows));
  const onRight = down(right);
  for (let i = 0; i < n; i++) push(ownerAt(onRight, right, vy + ((i + 0.5) * vh) / n, who));
  const onBottom = across(bottom);
  const bottomRows = onBottom.map((s) => new RowHit(s, bottom));
  for (let i = n - 1; i >= 0; i--)
    push(ownerAt(onBottom, vx + ((i + 0.5) * vw) / n, bottom, who, bottomRows));
  const onLeft = down(left);
  for (let i = n - 1; i >= 0; i--) push(ownerAt(onLeft, left, vy + ((i + 0.5) * vh) / n, who));
  const shares: Partial<Record<ShapeClass | 'none' | 'cut', number>> = {};
  for (const o of owners) shares[o] = (shares[o] ?? 0) + 1 / owners.length;
  const subjectPoints = [...bySubject.values()].reduce((a, b) => a + b, 0);
  const pieces = overlapping(bySubject);
  const most = Math.max(0, ...pieces);
  return {
    points: owners.length,
    tiling: pieces.length >= TILING_SHAPES && most < TILING_DOMINANCE * subjectPoints,
    subjectRun: longestRun(owners, ['subject', 'cut']) / owners.length,
    cutRun: cutRun(parts) / owners.length,
    closeUpRun: longestRun(owners, ['closeup']) / owners.length,
    closeUpShape: readCloseUp(shapes, frame)?.shape ?? null,
    owners: Object.fromEntries(
      Object.entries(shares).map(([k, v]) => [k, Math.round(v * 1000) / 1000]),
    ),
    ...textsOff(root, frame),
    ...(lineArt ? { lineArt } : {}),
  };
}

/** Text lines running off the frame (text-off-frame.ts: laid out in the pinned fonts). */
function textsOff(root: XNode, frame: [number, number, number, number]) {
  const t = textsOffFrame(root, frame);
  return { textsOff: t.texts, textHidden: t.hiddenShare };
}

/**
 * The frame's subject owners as pieces: shapes nested in one another (one's box inside the
 * other's, within NESTED_TOL) are one piece — a park's lawn, its rim and its paths are one
 * island, layered — while tiles lie side by side, interlocking at most. The points each
 * piece owns.
 */
function overlapping(bySubject: Map<FrameShape, number>): number[] {
  const list = [...bySubject.entries()];
  // Each owner is a shape reaching the frame, at most a few hundred of them.
  const parent = list.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  // b inside a, within NESTED_TOL of a's own size.
  const holds = (a: FrameShape['box'], b: FrameShape['box']) => {
    const tx = NESTED_TOL * (a[2] - a[0]);
    const ty = NESTED_TOL * (a[3] - a[1]);
    return b[0] >= a[0] - tx && b[1] >= a[1] - ty && b[2] <= a[2] + tx && b[3] <= a[3] + ty;
  };
  for (let i = 0; i < list.length; i++) {
    const a = list[i]![0].box;
    for (let j = i + 1; j < list.length; j++) {
      const b = list[j]![0].box;
      if (holds(a, b) || holds(b, a)) parent[root(i)] = root(j);
    }
  }
  const points = new Map<number, number>();
  for (const [i, [, n]] of list.entries()) points.set(root(i), (points.get(root(i)) ?? 0) + n);
  return [...points.values()];
}

/**
 * The longest cut round the frame, read as a circle: a run of points owned by cut subjects,
 * joined to the next run of the same part across a gap no longer than either (a hiker's two
 * shins crossing the bottom edge a step apart are one cut of him, as one body would be; two
 * legs of a table far apart are not). The gap is not counted, only the points owned.
 */
export function cutRun(parts: readonly (number | null)[]): number {
  const n = parts.length;
  // Maximal runs of owned points: where each starts, how long, its first and last part.
  const runs: { at: number; len: number; first: number; last: number }[] = [];
  const start = parts.indexOf(null);
  if (start < 0) return n;
  for (let k = 1; k <= n; k++) {
    const i = (start + k) % n;
    const p = parts[i];
    const prev = runs[runs.length - 1];
    if (p === null || p === undefined) continue;
    if (prev && parts[(i - 1 + n) % n] !== null && (prev.at + prev.len) % n === i) {
      prev.len++;
      prev.last = p;
    } else runs.push({ at: i, len: 1, first: p, last: p });
  }
  let best = 0;
  for (let a = 0; a < runs.length; a++) {
    let sum = runs[a]!.len;
    best = Math.max(best, sum);
    // Chain forwards while the next run is the same part across a short gap.
    for (let k = 1; k < runs.length; k++) {
      const r = runs[(a + k - 1) % runs.length]!;
      const q = runs[(a + k) % runs.length]!;
      const gap = (q.at - (r.at + r.len) + 2 * n) % n;
      if (q.first !== r.last || gap > Math.min(r.len, q.len)) break;
      sum += q.len;
      best = Math.max(best, sum);
    }
  }
  return Math.min(best, n);
}

/** The longest run of one owner round the frame, read as a circle. */
export function longestRun(owners: readonly string[], cls: readonly string[]): number {
  const n = owners.length;
  // Which points are of the class, tested once each (not twice round the circle).
  const hit = new Uint8Array(n);
  let all = true;
  for (let i = 0; i < n; i++) {
    hit[i] = cls.includes(owners[i]!) ? 1 : 0;
    if (hit[i] === 0) all = false;
  }
  if (all) return n;
  let best = 0;
  let run = 0;
  for (let i = 0; i < 2 * n; i++) {
    run = hit[i < n ? i : i - n] === 1 ? run + 1 : 0;
    if (run > best) best = run;
  }
  return Math.min(best, n);
}
