// Line-art subjects cut by the frame (issue 40, 7 Dec 2026, h38stroke). The filled reading
// (frame-shapes.ts) skips every unfilled shape, so a figure drawn in strokes only — a
// bicycle, a stick figure, a Feather/Lucide-style icon, a wireframe — is never a subject, and
// the pixels see its outline cross the border in a couple of points a stroke-width wide,
// under the check's floor. This reads the figure's own geometry instead: a part (the same
// top-level parts as the filled reading) of stroke-only shapes, holding a closed outline (a
// wheel, a head, a box) that runs past the frame by RUNS_PAST of its own extent, is a
// subject cut through its body; so is such a figure whose limbs — open strokes meeting a
// closed outline of it — run off the frame (openLinesCut), and so is a filled figure whose
// thick stroked limb (a flamingo's neck) runs off to a part drawn past it. What is drawn in
// strokes and reaches the frame on purpose is open lines (rays, beams, rain, grass, hatching,
// horizons, cables, underlines, arrows), a closed outline round the whole picture (a
// border), or a stroked tiling (the part spans the frame, or repeats one outline along it);
// none of those is read as cut.

import { WIDENS } from './bust-shape.ts';
import type { M, Pt } from './geometry.ts';

/** A stroke-only shape's box in canvas units (from the frame walk of frame-shapes.ts). */
export interface StrokeShape {
  box: [number, number, number, number];
  /** The top-level part it belongs to (frame-shapes.ts topParts), -1 for none. */
  group: number;
  /** A closed outline (circle, ellipse, rect, polygon, a path closed by Z or drawn round). */
  closed: boolean;
  /** How many filled shapes (frame-shapes.ts) were painted before it: its place in paint order. */
  at?: number;
  /** Its stroke's width in canvas units. */
  width?: number;
  /**
   * Its subpaths in its own units and the matrix placing them on the canvas (shared arrays,
   * read-only): read only where a box is not enough, for a figure that may be a close-up.
   */
  local?: { polys: readonly (readonly Pt[])[]; m: M };
}

/** A closed outline running this share of its own extent past a side is cut through it. */
export const STROKE_PAST = 0.1;
/** A part spanning this share of the frame and meeting both ends is drawn across it. */
const SPAN = 0.9;
/** Closed outlines of one part crossing the frame, of one size (within this), repeat. */
const SAME_SIZE = 0.2;
/**
 * A closed outline whose short side is under this share of its long side is a streak (a
 * grass blade, a beam, a lane marking drawn as a thin outline), not a body.
 */
export const SLENDER = 0.35;
/**
 * A closed outline smaller than this share of its part's extent is a detail of it (an
 * arrowhead on a long arrow, a flash on a camera), or than OUTLINE_FRAME of the frame's side.
 */
export const OUTLINE_PART = 0.15;
export const OUTLINE_FRAME = 0.04;
/** Cut outlines of one size spread along the frame over this many times that size: a row. */
export const ROW_SPREAD = 4;
/** A line-art figure of at least this many strokes can be cut through its open lines… */
export const OPEN_MIN_SHAPES = 3;
/** …when its extent runs STROKE_PAST past a side, and this share of its box stays inside. */
export const OPEN_INSIDE = 0.5;
/** A part reaching this share into the picture from the bottom it runs past is a close-up. */
const DEEP = 0.55;
/**
 * A stroke of a filled figure this wide (a share of the frame's short side) is a limb drawn
 * as a line — a flamingo's neck, an arm — not a cord, a string, a whisker or a ray.
 */
export const THICK_LIMB = 0.025;

export interface LineArtCut {
  /** Share of the frame's perimeter the cut outlines cross (their extent along the side). */
  run: number;
  /** The sides cut: top, right, bottom, left. */
  sides: string[];
  /** Closed outlines cut, and the stroke shapes of their parts. */
  outlines: number;
  shapes: number;
}

const SIDES = ['top', 'right', 'bottom', 'left'] as const;

/**
 * Consecutive top-level stroke-only elements whose boxes come this close (a share of the
 * frame's short side) are one figure drawn without a group round it.
 */
const LOOSE_GAP = 0.01;

/** A stretch of more loose strokes than this is hatching or a texture, never one figure. */
const LOOSE_MAX = 200;

/**
 * A figure written as ungrouped top-level elements (a wheel, a wheel, a frame path: each its
 * own part, so no part holds two strokes) becomes one part again: in a stretch of consecutive
 * top-level parts that are one stroke-only shape each, with no fill, the shapes joined by
 * touching boxes. Replaces those parts in `parts` by the joined sets of two or more (keyed
 * below -1).
 */
function gatherLooseFigures(
  parts: Map<number, StrokeShape[]>,
  withFill: ReadonlySet<number>,
  gap: number,
): void {
  const singles = [...parts]
    .filter(([g, list]) => list.length === 1 && !withFill.has(g))
    .sort((a, b) => a[0] - b[0]);
  const near = (p: StrokeShape['box'], q: StrokeShape['box']) =>
    p[0] - gap <= q[2] && q[0] - gap <= p[2] && p[1] - gap <= q[3] && q[1] - gap <= p[3];
  let key = -2;
  const join = (stretch: [number, StrokeShape][]) => {
    if (stretch.length < 2 || stretch.length > LOOSE_MAX) return;
    const root = stretch.map((_, k) => k);
    const find = (k: number): number => {
      let r = k;
      while (root[r] !== r) r = root[r]!;
      return r;
    };
    for (let a = 0; a < stretch.length; a++)
      for (let b = a + 1; b < stretch.length; b++)
        if (near(stretch[a]![1].box, stretch[b]![1].box)) root[find(a)] = find(b);
    const sets = new Map<number, [number, StrokeShape][]>();
    for (let k = 0; k < stretch.length; k++) {
      const r = find(k);
      const list = sets.get(r);
      if (list) list.push(stretch[k]!);
      else sets.set(r, [stretch[k]!]);
    }
    for (const set of sets.values()) {
      if (set.length < 2) continue;
      for (const [g] of set) parts.delete(g);
      parts.set(
        key--,
        set.map(([, s]) => s),
      );
    }
  };
  let stretch: [number, StrokeShape][] = [];
  for (const [g, [s]] of singles) {
    const last = stretch[stretch.length - 1];
    if (!last || g !== last[0] + 1) {
      join(stretch);
      stretch = [];
    }
    stretch.push([g, s!]);
  }
  join(stretch);
}

/**
 * The line-art subjects the frame cuts, or null. `filled` is the filled reading: a part whose
 * filled shapes are backdrop, band, scenery or close-up is not a line-art figure (its strokes
 * are that scenery's outlines).
 */
export function lineArtCut(
  strokes: StrokeShape[],
  filled: readonly { cls: string; group: number; box: StrokeShape['box'] }[],
  [vx, vy, vw, vh]: [number, number, number, number],
): LineArtCut | null {
  if (strokes.length === 0) return null;
  const parts = new Map<number, StrokeShape[]>();
  for (const s of strokes) {
    if (s.group < 0) continue;
    const list = parts.get(s.group);
    if (list) list.push(s);
    else parts.set(s.group, [s]);
  }
  const framing = new Set<number>();
  const withFill = new Set<number>();
  // The filled subject shapes of each part: a figure with a filled body and stroked limbs.
  const bodiesOf = new Map<number, StrokeShape['box'][]>();
  for (const f of filled) {
    withFill.add(f.group);
    if (f.cls === 'background' || f.cls === 'band' || f.cls === 'scenery' || f.cls === 'closeup')
      framing.add(f.group);
    if (f.cls !== 'subject') continue;
    const list = bodiesOf.get(f.group);
    if (list) list.push(f.box);
    else bodiesOf.set(f.group, [f.box]);
  }
  gatherLooseFigures(parts, withFill, LOOSE_GAP * Math.min(vw, vh));
  const [fx1, fy1] = [vx + vw, vy + vh];
  const cutSides = new Set<string>();
  let run = 0;
  let outlines = 0;
  let shapes = 0;
  const thick = THICK_LIMB * Math.min(vw, vh);
  const count = (open: { side: number; along: number }, list: readonly StrokeShape[]) => {
    cutSides.add(SIDES[open.side]!);
    run = Math.max(run, open.along / (2 * (vw + vh)));
    outlines += 1;
    shapes += list.length;
  };
  for (const [group, list] of parts) {
    if (framing.has(group)) continue;
    // A filled figure whose thick limbs are strokes (a flamingo's neck running off the top
    // to a head drawn past it): its filled shapes are its bodies, its thick strokes limbs.
    const fills = bodiesOf.get(group);
    if (fills && list.some((s) => (s.width ?? 0) >= thick)) {
      const limbs = list.filter((s) => (s.width ?? 0) >= thick);
      const open = openLinesCut(limbs, jointBox(limbs, fills), [vx, vy, vw, vh], fills);
      if (open) {
        count(open, list);
        continue;
      }
    }
    // A figure is a group of strokes: a lone outline is a ring, a frame, an ornament.
    if (list.length < 2) continue;
    const [x0, y0, x1, y1] = jointBox(list, []);
    // Drawn across the picture (a tiling, a grid, wires, a border round it): not a figure.
    const w = (Math.min(x1, fx1) - Math.max(x0, vx)) / vw;
    const h = (Math.min(y1, fy1) - Math.max(y0, vy)) / vh;
    if ((w >= SPAN && x0 <= vx && x1 >= fx1) || (h >= SPAN && y0 <= vy && y1 >= fy1)) continue;
    // A figure filling the picture from the bottom it runs past, widest where the frame cuts
    // it, is a close-up (a bust: shoulders under a head). One that narrows to the edge — a
    // seahorse's tail, a leg — is a figure whose lower end the frame cuts.
    if (
      y1 > fy1 &&
      h >= DEEP &&
      (y1 - fy1) / (y1 - y0) >= 0.05 &&
      widensToBottom(list, Math.max(y0, vy), fy1)
    )
      continue;
    const cut: { s: StrokeShape; side: number; along: number }[] = [];
    for (const s of list) {
      if (!s.closed) continue;
      const [a0, b0, a1, b1] = s.box;
      const sw = a1 - a0;
      const sh = b1 - b0;
      if (!(sw > 0 && sh > 0)) continue;
      const size = Math.max(sw, sh);
      if (size < OUTLINE_FRAME * Math.min(vw, vh)) continue;
      const past = [(vy - b0) / sh, (a1 - fx1) / sw, (b1 - fy1) / sh, (vx - a0) / sw];
      let side = -1;
      for (let k = 0; k < 4; k++)
        if (past[k]! >= STROKE_PAST && (side < 0 || past[k]! > past[side]!)) side = k;
      if (side < 0 || entersLengthwise(s.box, side)) continue;
      // A small outline of a large figure (an arrowhead, a flash, a wheel of a long machine, a
      // heron's head over its long neck and legs) is a detail of it: cut only where the
      // figure itself runs past that side as a cut figure does (figurePast).
      if (
        size < OUTLINE_PART * Math.max(x1 - x0, y1 - y0) &&
        !figurePast([x0, y0, x1, y1], side, [vx, vy, vw, vh])
      )
        continue;
      // Its extent along that side, inside the frame's span: the chord the frame cuts.
      const along =
        side % 2 === 0
          ? Math.max(0, Math.min(a1, fx1) - Math.max(a0, vx))
          : Math.max(0, Math.min(b1, fy1) - Math.max(b0, vy));
      // The outline crosses the frame, or lies wholly beyond it while its figure crosses that
      // side (a wheel pushed out past the edge, the rest of the bicycle inside).
      const crosses =
        side === 0 ? y1 > vy : side === 1 ? x0 < fx1 : side === 2 ? y0 < fy1 : x1 > vx;
      if (crosses && w > 0 && h > 0 && along > 0) cut.push({ s, side, along });
    }
    if (cut.length === 0) {
      // No closed outline is cut: the figure may still be cut through its open lines.
      const open = openLinesCut(list, [x0, y0, x1, y1], [vx, vy, vw, vh]);
      if (open) count(open, list);
      continue;
    }
    // One outline repeated in a row along the frame (rings, tiles, links of a chain): a
    // pattern. A figure's petals or windows of one size lie together, not spread in a row.
    if (cut.length >= 3) {
      const size = (s: StrokeShape) => Math.max(s.box[2] - s.box[0], s.box[3] - s.box[1]);
      const ref = size(cut[0]!.s);
      let lo = Infinity;
      let hi = -Infinity;
      for (const c of cut) {
        const horizontal = c.side % 2 === 0;
        lo = Math.min(lo, horizontal ? c.s.box[0] : c.s.box[1]);
        hi = Math.max(hi, horizontal ? c.s.box[2] : c.s.box[3]);
      }
      if (
        cut.every((c) => Math.abs(size(c.s) - ref) <= SAME_SIZE * ref) &&
        hi - lo >= ROW_SPREAD * ref
      )
        continue;
    }
    const sidesHere = new Set(cut.map((c) => c.side));
    // A figure is cut on one side or in one corner, not all round.
    if (sidesHere.size > 2) continue;
    for (const c of cut) {
      cutSides.add(SIDES[c.side]!);
      run = Math.max(run, c.along / (2 * (vw + vh)));
    }
    outlines += cut.length;
    shapes += list.length;
  }
  if (outlines === 0) return null;
  return {
    run: Math.round(run * 1000) / 1000,
    sides: [...cutSides],
    outlines,
    shapes,
  };
}

/** A box at most SLENDER as wide as long (a streak, a blade, a rim): never a figure's body. */
const isSlender = (w: number, h: number) => Math.min(w, h) < SLENDER * Math.max(w, h);

/**
 * A slender outline whose long axis runs across the side it passes: a streak entering the
 * picture (a beam, a grass blade, a lane marking), not a body. One lying along that side — a
 * trumpet's bell rim, a plank's end — is a body the frame cuts. (A wide slender one passing a
 * corner goes by the side it runs furthest past.)
 */
export function entersLengthwise([a0, b0, a1, b1]: StrokeShape['box'], side: number): boolean {
  const [w, h] = [a1 - a0, b1 - b0];
  if (!isSlender(w, h)) return false;
  // Top and bottom are crossed lengthwise by a tall streak, the sides by a wide one.
  return side % 2 === 0 ? h > w : w > h;
}

/**
 * Whether a figure's box runs past one side (0 top, 1 right, 2 bottom, 3 left) as a cut
 * figure does: by STROKE_PAST of its own extent across that side, or by OUTLINE_FRAME of the
 * frame's (openLinesCut's test; session 42's kangaroo). A figure drawn up to the edge, its
 * arrowhead a few units past, does not.
 */
export function figurePast(
  [x0, y0, x1, y1]: StrokeShape['box'],
  side: number,
  [vx, vy, vw, vh]: [number, number, number, number],
): boolean {
  const far = [vy - y0, x1 - (vx + vw), y1 - (vy + vh), vx - x0][side]!;
  const [own, frame] = side % 2 === 0 ? [y1 - y0, vh] : [x1 - x0, vw];
  return far > 0 && (far >= STROKE_PAST * own || far >= OUTLINE_FRAME * frame);
}

/** The box holding a figure's strokes and filled shapes. */
function jointBox(
  list: readonly StrokeShape[],
  fills: readonly StrokeShape['box'][],
): StrokeShape['box'] {
  const b: StrokeShape['box'] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const c of [...list.map((s) => s.box), ...fills]) {
    b[0] = Math.min(b[0], c[0]);
    b[1] = Math.min(b[1], c[1]);
    b[2] = Math.max(b[2], c[2]);
    b[3] = Math.max(b[3], c[3]);
  }
  return b;
}

/** Rows of a figure's lower half sampled for its widest span (as close-up.ts's GRID). */
const ROWS = 24;

/**
 * The span of a figure's strokes across the row y: from the leftmost to the rightmost point
 * where a stroke crosses it (0 where none does, or a shape carries no geometry).
 */
export function rowSpan(list: readonly StrokeShape[], y: number): number {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of list) {
    if (!s.local || s.box[1] > y || s.box[3] < y) continue;
    const [a, b, c, d, e, f] = s.local.m;
    for (const poly of s.local.polys) {
      const n = poly.length;
      // A closed outline's last point joins its first.
      const segments = s.closed ? n : n - 1;
      for (let k = 0; k < segments; k++) {
        const p = poly[k]!;
        const q = poly[(k + 1) % n]!;
        const [px, py] = [a * p[0] + c * p[1] + e, b * p[0] + d * p[1] + f];
        const [qx, qy] = [a * q[0] + c * q[1] + e, b * q[0] + d * q[1] + f];
        if ((py - y) * (qy - y) > 0 || py === qy) continue;
        const x = px + ((y - py) / (qy - py)) * (qx - px);
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
    }
  }
  return hi >= lo ? hi - lo : 0;
}

/**
 * Whether a figure seen from `top` to the frame's bottom `bottom` is widest where the frame
 * cuts it: its span just inside the bottom edge is WIDENS of the widest row of its lower half
 * (close-up.ts reads a filled bust the same way).
 */
function widensToBottom(list: readonly StrokeShape[], top: number, bottom: number): boolean {
  const edge = bottom - 0.005 * (bottom - top);
  const atEdge = rowSpan(list, edge);
  if (atEdge <= 0) return false;
  const mid = (top + bottom) / 2;
  let widest = 0;
  for (let k = 0; k <= ROWS; k++)
    widest = Math.max(widest, rowSpan(list, mid + ((edge - mid) * k) / ROWS));
  return atEdge >= WIDENS * widest;
}

/**
 * A line-art figure cut through its limbs (session 41; the blind misses model-e l07-b, a
 * goalkeeper's arm, and model-f s08-a, a seahorse's tail: strokes that never close run off the
 * frame). Read only for a figure — a part of at least OPEN_MIN_SHAPES strokes holding a body,
 * a closed outline that is not a streak (a head, an eye, a wheel): rays, rain, grass and
 * hatching are open lines only — whose joint box runs past one side (or one corner) while
 * most of it (OPEN_INSIDE) stays in the picture. A limb is any other stroke: an open line, or
 * a slender closed one (a drill's long body, a blade). Its cut is the extent, along that side,
 * of the limbs crossing it whose box meets a body's (a limb, not a mountain line drawn beside
 * the sun) and which run STROKE_PAST of their own extent past it, as a cut outline does. The
 * figure as a whole must run past by STROKE_PAST of its extent or by OUTLINE_FRAME of the
 * frame (session 42: a kangaroo's head and feet 9 % of its long body, 7 % of the frame). The
 * caller has already left out parts drawn across the frame and close-ups.
 */
export function openLinesCut(
  list: readonly StrokeShape[],
  [x0, y0, x1, y1]: [number, number, number, number],
  [vx, vy, vw, vh]: [number, number, number, number],
  fills: readonly StrokeShape['box'][] = [],
): { side: number; along: number } | null {
  const isBody = (s: StrokeShape) => {
    const [w, h] = [s.box[2] - s.box[0], s.box[3] - s.box[1]];
    return s.closed && w > 0 && h > 0 && !isSlender(w, h);
  };
  const bodies = [...list.filter(isBody).map((s) => s.box), ...fills];
  if (list.length + fills.length < OPEN_MIN_SHAPES || bodies.length === 0) return null;
  const [fx1, fy1] = [vx + vw, vy + vh];
  // A limb of the figure touches one of its bodies (an arm the head, a tail the eye it curls
  // round); a mountain line drawn beside a sun does not.
  const touches = (b: StrokeShape['box']) =>
    bodies.some((c) => b[0] <= c[2] && c[0] <= b[2] && b[1] <= c[3] && c[1] <= b[3]);
  const pw = x1 - x0;
  const ph = y1 - y0;
  if (!(pw > 0 && ph > 0)) return null;
  const beyond = [vy - y0, x1 - fx1, y1 - fy1, vx - x0];
  const sides = [0, 1, 2, 3].filter((k) => beyond[k]! > 0);
  if (sides.length === 0 || sides.length > 2) return null;
  const shown =
    ((Math.min(x1, fx1) - Math.max(x0, vx)) * (Math.min(y1, fy1) - Math.max(y0, vy))) / (pw * ph);
  if (shown < OPEN_INSIDE) return null;
  let best: { side: number; along: number } | null = null;
  for (const side of sides) {
    if (!figurePast([x0, y0, x1, y1], side, [vx, vy, vw, vh])) continue;
    const line = side === 0 ? vy : side === 1 ? fx1 : side === 2 ? fy1 : vx;
    let along = 0;
    for (const s of list) {
      if (isBody(s)) continue;
      const [a0, b0, a1, b1] = s.box;
      const [lo, hi] = side % 2 === 0 ? [b0, b1] : [a0, a1];
      if (!(lo < line && hi > line) || !touches(s.box)) continue;
      const out = side === 0 || side === 3 ? line - lo : hi - line;
      if (out < STROKE_PAST * (hi - lo)) continue;
      // A straight limb crossing square to the side has no extent along it but its width.
      along += Math.max(
        s.width ?? 0,
        side % 2 === 0
          ? Math.max(0, Math.min(a1, fx1) - Math.max(a0, vx))
          : Math.max(0, Math.min(b1, fy1) - Math.max(b0, vy)),
      );
    }
    if (along > 0 && (!best || along > best.along)) best = { side, along };
  }
  return best;
}
