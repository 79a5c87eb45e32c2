// What each filled shape of a drawing is, from the SVG's own structure (issue 40): the
// `clipped` check must tell a subject cut by the frame from the light, background and
// scenery that reach the frame by design in a full-bleed scene. Pixels cannot: a light ray,
// a bokeh disc, a sky band split by a stem or a column look like cut shapes. The code can:
// a shape filled with a pattern or through a noise or blur filter is texture or light; a
// translucent one (or one whose gradient fades out) is light; one that covers most of the
// frame is background; one spanning the frame is a band (sky, water, ground, wall); one
// reaching deep into the picture from a side it crosses is scenery (a column, a drape, a
// river bank) — or, when it runs well past that side, a deliberate close-up. What is left —
// a closed shape with its own solid (or shading) fill, drawn smaller than that — is a
// subject. Read on the sanitiser's parse of the document as written, like overdraw.ts.
import { fitRoot, paintedBox } from './fit.ts';
import { coversViewBox } from './frame-backdrops.ts';
import { promoteBodies } from './frame-bodies.ts';
import { backdropDiscs } from './frame-discs.ts';
import { sceneryMotifs } from './frame-motifs.ts';
import { promoteSilhouettes } from './frame-silhouettes.ts';
import type { StrokeShape } from './frame-strokes.ts';
import { apply, clippedArea, ID, type M, mul, num, type Pt, parseTransform } from './geometry.ts';
import { standsInLandscape } from './landscape.ts';
import {
  canvasOf,
  colourAlpha,
  localShape,
  NOT_PAINTED,
  opacityValue,
  type ShapeMemo,
  styleOf,
  tagOf,
} from './overdraw.ts';
import { rectLimb } from './rect-limb.ts';
import { onBackdrop, slicedInScene } from './scene-part.ts';
import { slicedBySide } from './side-slice.ts';
import { readStyleSheet } from './style-sheet.ts';
import { symbolViewBox } from './symbol-view.ts';
import { slicedByTop, subjectSlicedByTop } from './top-slice.ts';
import type { XNode } from './walker.ts';

export type ShapeClass =
  | 'subject'
  | 'background'
  | 'band'
  | 'scenery'
  | 'closeup'
  | 'flush'
  | 'light'
  | 'texture';

export interface FrameShape {
  /** Subpaths in canvas (viewBox) coordinates. */
  polys: Pt[][];
  box: [number, number, number, number];
  cls: ShapeClass;
  /** Index of the top-level part of the drawing it belongs to (see topParts). */
  group: number;
  /** An axis-aligned <rect>: architecture and furniture (walls, shelves, tabletops, beams). */
  rect: boolean;
  /**
   * Its part (or itself) runs past the frame by RUNS_PAST of its own extent: sliced by the
   * frame, not drawn up to it.
   */
  runsPast: boolean;
  /** Drawn as a top-level part of its own (a bare path of the scene, not inside a group). */
  bare: boolean;
  /** Its class read without the close-up reading (for one standing in a landscape). */
  open?: ShapeClass;
  /** Read as backdrop by its box, but the body of a figure drawn over one (frame-bodies.ts). */
  body?: true;
  /** A circle or an ellipse. */
  round?: true;
  /** A disc laid from the frame's edge (frame-discs.ts): backdrop, never a figure's body. */
  disc?: true;
  /** The id of the element a <use> placed it from, and which placement (frame-motifs.ts). */
  motif?: string;
  copy?: number;
}

/**
 * A bare rectangle on one side of the frame is architecture unless it runs this share of its
 * extent past it: a shelf or a beam is drawn up to the edge or a little past; a block pushed
 * out of the frame (a temple's tiers, a box) runs well past. One in a corner (reaching two
 * sides: a building standing on the ground edge) is architecture whatever it runs past.
 */
export const RECT_PAST = 0.25;

const DISCS = new Set(['circle', 'ellipse']);
/** The tags overdraw.ts `localShape` samples (every other tag gives null). */
const SHAPE_TAGS = new Set(['rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'path']);
/** This many bare discs under one parent are a scatter (bokeh, bubbles, dots). */
export const SCATTER = 6;

/** A part running this share of its extent past a side of the frame is sliced by it. */
export const RUNS_PAST = 0.1;
/**
 * A subject whose part reaches the frame but runs no further past it than this share of its
 * extent was drawn up to the frame (a cloud, a plant or a rock shaped to the scene's edge by
 * its author: `flush`), not cut by it: the frame slices only what is drawn beyond it.
 */
export const FLUSH_PAST = 0.005;

/** A shape covering this share of the frame is the background. */
export const BACKGROUND_AREA = 0.45;
/** A shape spanning this share of the frame's width or height is a band across it. */
export const BAND_SPAN = 0.9;
/**
 * A shape reaching this share into the picture from a side it crosses is scenery or a
 * close-up, not an accident: a subject pushed off the frame leaves a fragment (the planted
 * cuts leave under 45 %), a column, drape or bust fills the frame from its side.
 */
export const DEEP_REACH = 0.55;
/**
 * A part reaching this share across the picture from a side it runs well past (not the
 * bottom) is a subject sliced by that side, even where it also stands on the bottom edge.
 */
export const ACROSS_REACH = 0.75;
/**
 * A part running this share of its extent past a side (not the bottom) is sliced there even
 * where it also meets another side within a hair: a drape or a column is drawn up to its side
 * or a little past, a logo or a body pushed out of the frame runs on by a third of itself.
 */
export const SLICED_DEEP = 0.3;
/** …and a close-up when it runs past that side by this share of its own extent. */
export const CLOSEUP_PAST = 0.05;
/** Translucent below this alpha: light, haze, a glow (what it covers still shows). */
export const LIGHT_ALPHA = 0.5;
/** A gradient with a stop below this opacity fades out: a glow, a ray, a vignette. */
export const FADING_STOP = 0.35;

/** Elements visited before stopping: a bound on work for hostile fan-out through <use>. */
const BUDGET = 40_000;

type Refs = Map<string, XNode>;
const kidsOf = (n: XNode): XNode[] => {
  const k = n[tagOf(n)];
  return Array.isArray(k) ? (k as XNode[]) : [];
};
const attrs = (n: XNode) => (n[':@'] as Record<string, string> | undefined) ?? {};

/** What a filter does to a shape: blurs it away (glow), makes noise, or keeps it crisp. */
function filterKind(f: XNode | undefined): 'glow' | 'noise' | 'crisp' {
  if (!f) return 'crisp';
  let blur = false;
  let keepsSource = false;
  let noise = false;
  const visit = (nodes: XNode[], depth: number) => {
    if (depth > 20) return;
    for (const n of nodes) {
      const t = tagOf(n);
      const a = attrs(n);
      if (t === 'feTurbulence') noise = true;
      if (t === 'feGaussianBlur') blur = true;
      if (t === 'feDropShadow') keepsSource = true;
      // A merge, blend or composite that puts the source back: a shadow or an outer glow
      // around a crisp shape, which is still the shape.
      if (t !== 'feGaussianBlur' && (a.in === 'SourceGraphic' || a.in2 === 'SourceGraphic'))
        keepsSource = true;
      visit(kidsOf(n), depth + 1);
    }
  };
  visit(kidsOf(f), 0);
  if (noise && !keepsSource) return 'noise';
  return blur && !keepsSource ? 'glow' : 'crisp';
}

/** The smallest stop opacity of a gradient (following href chains a few steps). */
function minStopOpacity(g: XNode, refs: Refs, hops = 0): number {
  let min = 1;
  let stops = 0;
  for (const s of kidsOf(g)) {
    if (tagOf(s) !== 'stop') continue;
    stops++;
    const a = attrs(s);
    const o = styleOf(a, 'stop-opacity');
    min = Math.min(
      min,
      (o === undefined ? 1 : opacityValue(o)) * colourAlpha(styleOf(a, 'stop-color')),
    );
  }
  if (stops === 0 && hops < 4) {
    const href = (attrs(g).href ?? attrs(g)['xlink:href'] ?? '').trim();
    const next = href.startsWith('#') ? refs.get(href.slice(1)) : undefined;
    if (next) return minStopOpacity(next, refs, hops + 1);
  }
  return min;
}

const refId = (v: string | undefined) => /url\(\s*['"]?#([^)'"\s]+)/.exec(v ?? '')?.[1];

interface Inherited {
  fill: string;
  alpha: number;
  fillOpacity: number;
  filter: 'glow' | 'noise' | 'crisp';
  /** The stroke paint, stroke-opacity, and whether a clip-path or mask bounds the shape. */
  stroke: string;
  strokeOpacity: number;
  /** stroke-width in user units as written (a unit suffix ignored); 0 draws no stroke. */
  strokeWidth: number;
  bounded: boolean;
  /** The innermost <use> placing the shape: its target's id and the placement's number. */
  motif?: string;
  copy?: number;
}

/** Every filled shape of the document, in paint order, classified; and the frame. */
export function frameShapes(
  root: XNode,
  memo?: ShapeMemo,
): {
  shapes: FrameShape[];
  frame: [number, number, number, number];
  refs: Refs;
  /** Stroke-only shapes (frame-strokes.ts reads line-art figures from them). */
  strokes: StrokeShape[];
} {
  const refs: Refs = new Map();
  const index = (nodes: XNode[], depth: number) => {
    if (depth > 400) return;
    for (const n of nodes) {
      const id = attrs(n).id;
      if (id && !refs.has(id)) refs.set(id, n);
      index(kidsOf(n), depth + 1);
    }
  };
  index([root], 0);
  // The frame is what the canvas shows, not the viewBox: a non-square viewBox is fitted to
  // the square canvas and what lies beyond it is painted in the margins (issue 40).
  const frame = paintedBox(attrs(root)) ?? canvasOf(attrs(root));
  // The author's own frame: a backdrop laid edge to edge of it is still a backdrop where the
  // canvas shows empty margins beyond it (the same box as `frame` for a square viewBox).
  const drawn = fitRoot(attrs(root), 512).sourceViewBox ?? frame;
  const [vx, vy, vw, vh] = frame;
  const shapes: FrameShape[] = [];
  const strokes: StrokeShape[] = [];
  let visits = 0;
  let copies = 0;
  const tops = topParts(root);
  const sheet = readStyleSheet(root);
  const classify = (
    polys: Pt[][],
    p: Inherited,
    group: number,
    rect: boolean,
  ): FrameShape | null => {
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    let area = 0;
    for (let i = 0; i < polys.length; i++) {
      const poly = polys[i]!;
      for (let k = 0; k < poly.length; k++) {
        const q = poly[k]!;
        const x = q[0];
        const y = q[1];
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
      if (poly.length > 2) area += clippedArea(poly, vx, vy, vx + vw, vy + vh);
    }
    if (!(x1 > x0 && y1 > y0)) return null;
    const box: [number, number, number, number] = [x0, y0, x1, y1];
    const cls = shapeClass(box, area / (vw * vh), p, refs, frame, drawn);
    // What a close-up shape is when it turns out to stand in a landscape (regroup).
    const open =
      cls === 'closeup' ? shapeClass(box, area / (vw * vh), p, refs, frame, drawn, false) : cls;
    const s: FrameShape = { polys, box, cls, open, group, rect, runsPast: false, bare: false };
    if (p.copy !== undefined) {
      s.motif = p.motif;
      s.copy = p.copy;
    }
    return s;
  };
  const walk = (
    nodes: XNode[],
    m: M,
    inh: Inherited,
    depth: number,
    useDepth: number,
    part: number,
  ) => {
    // Many bare discs side by side are a scatter — bokeh, bubbles, dots, confetti — not
    // subjects: a subject is a group of varied shapes.
    let discs = 0;
    for (const n of nodes) if (DISCS.has(tagOf(n))) discs++;
    for (const node of nodes) {
      const group = tops.get(node) ?? part;
      const tag = tagOf(node);
      if (tag === '#text') continue;
      if (++visits > BUDGET || depth > 200) return;
      if (tag === '' || NOT_PAINTED.has(tag)) continue;
      const a = attrs(node);
      // Its paint as its <style> sheets give it (style-sheet.ts), over its attributes.
      const st = sheet ? sheet.styled(tag, a) : a;
      if (styleOf(st, 'display') === 'none' || styleOf(st, 'visibility') === 'hidden') continue;
      const op = styleOf(st, 'opacity');
      const fo = styleOf(st, 'fill-opacity');
      const fill = styleOf(st, 'fill');
      const so = styleOf(st, 'stroke-opacity');
      const sw = Number.parseFloat(styleOf(st, 'stroke-width') ?? '');
      const filter = refId(styleOf(st, 'filter'));
      const p: Inherited = {
        fill: fill ?? inh.fill,
        alpha: inh.alpha * (op === undefined ? 1 : Math.max(0, Math.min(1, opacityValue(op)))),
        fillOpacity:
          fo === undefined ? inh.fillOpacity : Math.max(0, Math.min(1, opacityValue(fo))),
        filter: filter ? strongest(inh.filter, filterKind(refs.get(filter))) : inh.filter,
        stroke: styleOf(st, 'stroke') ?? inh.stroke,
        strokeOpacity:
          so === undefined ? inh.strokeOpacity : Math.max(0, Math.min(1, opacityValue(so))),
        // (a negative width is an error SVG renderers ignore: the inherited width stands)
        strokeWidth: Number.isFinite(sw) && sw >= 0 ? sw : inh.strokeWidth,
        bounded:
          inh.bounded ||
          (styleOf(st, 'clip-path') ?? 'none') !== 'none' ||
          (styleOf(st, 'mask') ?? 'none') !== 'none',
        motif: inh.motif,
        copy: inh.copy,
      };
      const mm = a.transform === undefined ? m : mul(m, parseTransform(a.transform));
      if (tag === 'use') {
        const href = (a.href ?? a['xlink:href'] ?? '').trim();
        const target = href.startsWith('#') ? refs.get(href.slice(1)) : undefined;
        if (!target || useDepth > 8) continue;
        const moved = mul(mm, [1, 0, 0, 1, num(a.x), num(a.y)]);
        const ttag = tagOf(target);
        // A symbol with its own viewBox is fitted into the use's viewport (symbol-view.ts).
        const view = ttag === 'symbol' ? symbolViewBox(attrs(target), a, drawn) : null;
        const at = view ? mul(moved, view) : moved;
        // Each placement is a copy of its target, numbered (frame-motifs.ts).
        const copy = { ...p, motif: href.slice(1), copy: copies++ };
        walk(
          ttag === 'symbol' ? kidsOf(target) : [target],
          at,
          copy,
          depth + 1,
          useDepth + 1,
          group,
        );
        continue;
      }
      if (tag === 'image') {
        const [x, y, w, h] = [num(a.x), num(a.y), num(a.width), num(a.height)];
        const rect: Pt[] = [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]; // biome-ignore format: a rect
        const s =
          w > 0 && h > 0
            ? classify([rect.map((q) => apply(mm, q))], { ...p, fill: '#000' }, group, false)
            : null;
        if (s) shapes.push(s);
        continue;
      }
      // An unfilled shape is not read: left before its path is sampled (the same shapes as
      // localShape reads; the check below stays for anything it returns).
      // …unless it is drawn in a solid stroke: line art (frame-strokes.ts).
      if (
        SHAPE_TAGS.has(tag) &&
        (tag === 'line' || p.fill === 'none' || p.fill === 'transparent')
      ) {
        if (lineArt(p, refs)) {
          const local = localShape(tag, a, memo);
          const s = local && local.length > 0 ? strokeShape(local, mm, tag, a, group) : null;
          if (s) {
            s.at = shapes.length;
            // Its width on the canvas: the matrix scales it by the root of its determinant.
            s.width = p.strokeWidth * Math.sqrt(Math.abs(mm[0] * mm[3] - mm[1] * mm[2]));
            strokes.push(s);
          }
        }
        continue;
      }
      const polys = localShape(tag, a, memo);
      if (polys) {
        if (tag === 'line' || p.fill === 'none' || p.fill === 'transparent') continue;
        const scatter = discs >= SCATTER && DISCS.has(tag);
        const s = classify(
          placed(polys, mm),
          p,
          group,
          tag === 'rect' && mm[1] === 0 && mm[2] === 0,
        );
        if (s) s.bare = tops.has(node);
        if (s && scatter && s.cls === 'subject') s.cls = 'texture';
        // A planet, a sun or a pool of light (frame-discs.ts).
        if (s && DISCS.has(tag)) s.round = true;
        if (s) shapes.push(s);
        continue;
      }
      walk(kidsOf(node), mm, p, depth + 1, useDepth, group);
    }
  };
  walk(
    kidsOf(root),
    ID,
    {
      fill: '#000',
      alpha: 1,
      fillOpacity: 1,
      filter: 'crisp',
      stroke: 'none',
      strokeOpacity: 1,
      strokeWidth: 1,
      bounded: false,
    },
    0,
    0,
    -1,
  );
  backdropDiscs(shapes, frame, strokes);
  promoteBodies(shapes, frame, (b) => pastShare(b, frame) >= RUNS_PAST);
  promoteSilhouettes(shapes, frame, (b) => pastShare(b, frame) >= RUNS_PAST);
  regroup(shapes, frame, drawn);
  sceneryMotifs(shapes, frame);
  return { shapes, frame, refs, strokes };
}

/** A solid, crisp, unbounded stroke: what a line-art figure is drawn in. */
function lineArt(p: Inherited, refs: Refs): boolean {
  if (p.bounded || p.filter !== 'crisp' || p.strokeWidth <= 0) return false;
  const stroke = p.stroke.trim();
  if (stroke === 'none' || stroke === 'transparent' || stroke === '') return false;
  if (p.alpha * p.strokeOpacity * colourAlpha(stroke) < LIGHT_ALPHA) return false;
  const ref = refId(stroke);
  if (ref) {
    const target = refs.get(ref);
    const t = target ? tagOf(target) : '';
    if (t !== 'linearGradient' && t !== 'radialGradient') return false;
    if (minStopOpacity(target!, refs) < FADING_STOP) return false;
  }
  return true;
}

const CLOSED_TAGS = new Set(['rect', 'circle', 'ellipse', 'polygon']);

/**
 * A stroke-only shape on the canvas: its box and whether its outline is closed. Its points
 * are placed one at a time, not copied (a drawing's hatching can be thousands of strokes).
 */
function strokeShape(
  polys: Pt[][],
  m: M,
  tag: string,
  a: Record<string, string>,
  group: number,
): StrokeShape | null {
  const [ma, mb, mc, md, me, mf] = m;
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const poly of polys)
    for (const q of poly) {
      const x = ma * q[0] + mc * q[1] + me;
      const y = mb * q[0] + md * q[1] + mf;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  if (!(x1 >= x0 && y1 >= y0)) return null;
  let closed = CLOSED_TAGS.has(tag) || (tag === 'path' && /[zZ]/.test(a.d ?? ''));
  if (!closed && tag !== 'line') {
    // Drawn round to where it began (two arcs making a wheel, a polyline back to its start),
    // in the shape's own units against its own box.
    closed = polys.some((poly) => {
      if (poly.length <= 2) return false;
      let [u0, v0, u1, v1] = [Infinity, Infinity, -Infinity, -Infinity];
      for (const q of poly) {
        if (q[0] < u0) u0 = q[0];
        if (q[0] > u1) u1 = q[0];
        if (q[1] < v0) v0 = q[1];
        if (q[1] > v1) v1 = q[1];
      }
      const f = poly[0]!;
      const l = poly[poly.length - 1]!;
      return Math.hypot(f[0] - l[0], f[1] - l[1]) <= 0.02 * Math.hypot(u1 - u0, v1 - v0);
    });
  }
  return { box: [x0, y0, x1, y1], group, closed, local: { polys, m } };
}

/**
 * A shape's subpaths in canvas units: `apply` on every point, as indexed loops with no
 * closure per subpath and point (the frame walk places every filled shape of a drawing).
 */
function placed(polys: Pt[][], m: M): Pt[][] {
  const a = m[0];
  const b = m[1];
  const c = m[2];
  const d = m[3];
  const e = m[4];
  const f = m[5];
  const out: Pt[][] = [];
  for (let i = 0; i < polys.length; i++) {
    const poly = polys[i]!;
    const pts: Pt[] = [];
    for (let k = 0; k < poly.length; k++) {
      const q = poly[k]!;
      const x = q[0];
      const y = q[1];
      // The same sums in the same order as geometry.ts `apply`: the same bits.
      pts.push([a * x + c * y + e, b * x + d * y + f]);
    }
    out.push(pts);
  }
  return out;
}

const PAINTED_PART = (n: XNode) => {
  const t = tagOf(n);
  return t !== '#text' && t !== '' && !NOT_PAINTED.has(t);
};

/**
 * The drawing's top-level parts: the root's painted children, looking through a single
 * wrapping <g> (Inkscape's layer, an LLM's <g id="scene">). A subject drawn as a group (a
 * figure, an emoji) is judged whole: its fingers reaching the frame belong to a bust.
 */
function topParts(root: XNode): Map<XNode, number> {
  let parts = kidsOf(root).filter(PAINTED_PART);
  for (let k = 0; k < 8 && parts.length === 1 && tagOf(parts[0]!) === 'g'; k++)
    parts = kidsOf(parts[0]!).filter(PAINTED_PART);
  return new Map(parts.map((n, i) => [n, i]));
}

/**
 * Subjects judged by their part: a subject shape of a part that fills the frame from a side
 * (the joint box of its opaque shapes reaches DEEP_REACH in) is scenery or a close-up, as one shape
 * would be; a bare axis-aligned rectangle reaching the frame (and not far past it, RECT_PAST)
 * is architecture or furniture.
 */
function regroup(
  shapes: FrameShape[],
  frame: [number, number, number, number],
  drawn: [number, number, number, number],
): void {
  const boxes = new Map<number, [number, number, number, number]>();
  const opaque = (c: ShapeClass) => c !== 'light' && c !== 'texture';
  for (const s of shapes) {
    // A part's extent is its own: the backdrop drawn in the same group is not part of it.
    if (!opaque(s.cls) || s.cls === 'background' || s.cls === 'band' || s.group < 0) continue;
    const b = boxes.get(s.group);
    if (!b) boxes.set(s.group, [...s.box]);
    else {
      b[0] = Math.min(b[0], s.box[0]);
      b[1] = Math.min(b[1], s.box[1]);
      b[2] = Math.max(b[2], s.box[2]);
      b[3] = Math.max(b[3], s.box[3]);
    }
  }
  const [vx, vy, vw, vh] = frame;
  const counts = new Map<number, number>();
  for (const s of shapes) if (opaque(s.cls)) counts.set(s.group, (counts.get(s.group) ?? 0) + 1);
  const figures = joinFigures(shapes, boxes, counts);
  const bodies = new Set(shapes.filter((s) => s.body).map((s) => s.group));
  for (const [i, s] of shapes.entries()) {
    const b = boxes.get(s.group);
    // A lone streak drawn bare (a top-level element, not a group of its own) straight on
    // the sky, sea, wall or wood laid under it — a cloud streak, a foam crest, a grain line —
    // with nothing drawn on it is detail of that scenery, not a subject: a subject is a
    // part of varied shapes, a group, a figure of bare pieces drawn over one another (a
    // dragonfly's abdomen segments), or a shape standing over more than one backdrop.
    if (
      s.cls === 'subject' &&
      s.bare &&
      s.group >= 0 &&
      counts.get(s.group) === 1 &&
      (figures.get(s.group)?.pieces ?? 1) === 1 &&
      inBackdrop(shapes, i, frame) &&
      !subjectSlicedByTop(s.box, frame)
    )
      s.cls = 'scenery';
    // A part filling the frame from a side it runs past is a close-up, all of it — unless it
    // stands in a landscape (landscape.ts): then it is a subject of the scene. The backdrop
    // laid in the same part is still the backdrop.
    const fig = figures.get(s.group);
    const scene = standsInLandscape(shapes, i, fig?.box ?? b ?? s.box, frame, drawn);
    if (s.cls === 'closeup' && scene) s.cls = s.open ?? 'subject';
    const layer = s.cls === 'background' || s.cls === 'band';
    if (
      opaque(s.cls) &&
      s.cls !== 'subject' &&
      !layer &&
      b &&
      !scene &&
      reachClass(b, frame, drawn) === 'closeup'
    )
      s.cls = 'closeup';
    // A bare piece of a figure continuing out of the frame as a close-up is that close-up.
    if (opaque(s.cls) && !layer && fig && !scene && reachClass(fig.box, frame, drawn) === 'closeup')
      s.cls = 'closeup';
    if (s.cls !== 'subject') continue;
    // A bare piece is sliced as its figure is: the last abdomen segment inside the frame is
    // cut when the abdomen runs on past it.
    const past = pastShare(fig?.box ?? b ?? s.box, frame);
    s.runsPast = past >= RUNS_PAST;
    // A part that is the whole scene says nothing of a subject the top slices (scene-part.ts).
    const own =
      slicedInScene(s.box, b ?? s.box, frame) && !bare(shapes, i) && onBackdrop(shapes, i, frame);
    const deep = b && !own ? reachClass(b, frame, drawn) : null;
    // A figure with a body drawn over the backdrop fills the frame as a subject does, not as
    // a column or a drape: its extent says where it is cut, not that it is scenery.
    if ((deep === 'closeup' && !scene) || (deep === 'scenery' && !bodies.has(s.group)))
      s.cls = deep;
    else if (
      s.rect &&
      reachClass(fig?.box ?? b ?? s.box, frame, drawn) !== 'sliced' &&
      !(b && rectLimb(shapes, i, b, frame, RUNS_PAST))
    ) {
      // …unless its part or figure is a subject a side slices (reachClass): a castle's keep
      // drawn as a rect among its walls and towers, a rocket's body carrying its bands and
      // window, runs past the top as the figure does — a piece of it, not a beam or a wall.
      const [x0, y0, x1, y1] = s.box;
      const sides = [x0 <= vx, y0 <= vy, x1 >= vx + vw, y1 >= vy + vh].filter(Boolean).length;
      // Standing in a corner (a skyline's last building on the ground edge, running past the
      // side) is architecture however far it runs past; elsewhere it must not run far: a
      // wall sliced through the top and a side, short of the ground, is a building cut.
      const grounded = sides >= 2 && y1 >= vy + vh;
      if (sides >= 1 && (grounded || pastShare(s.box, frame) < RECT_PAST)) s.cls = 'scenery';
    }
    if (s.cls === 'subject' && past <= FLUSH_PAST) s.cls = 'flush';
  }
}

/** Bare parts drawn over one another: their joint box, and how many they are. */
interface Figure {
  box: [number, number, number, number];
  pieces: number;
}

/**
 * Two bare parts whose boxes overlap by this share of the smaller one are drawn one over the
 * other: pieces of one figure (a tank and its shaft, a grain's nested rings).
 */
export const JOIN_OVERLAP = 0.1;
/** Bare parts joined at most (the pairwise pass is quadratic). */
const JOIN_MAX = 2000;

/**
 * A drawing made of bare top-level shapes (Inkscape's flat paths, an LLM's ungrouped scene)
 * has no group to say which shapes make one figure: a water tower's shaft is one part, its
 * tank another. Bare single-shape parts drawn over one another are joined into one figure,
 * and each part is judged by the figure's extent, as a group would be: the shaft continuing
 * its tank down out of the frame is a close-up of the tower, and grain rings nested in one
 * another across the whole frame are the texture they make, not subjects sliced by it.
 * Parts drawn as groups keep their own extent (a group already says what belongs together).
 */
function joinFigures(
  shapes: FrameShape[],
  boxes: Map<number, [number, number, number, number]>,
  counts: Map<number, number>,
): Map<number, Figure> {
  const bare = new Set<number>();
  // Only subject pieces are joined: a shape that reads as scenery or a close-up by itself is
  // judged by itself, and so is the detail drawn inside it (a glass sliced by the bottom edge
  // keeps its cut insides, as before).
  const holders = shapes.filter((s) => s.cls === 'closeup' || s.cls === 'scenery');
  const held = (b: FrameShape['box']) =>
    holders.some((h) => b[0] >= h.box[0] && b[1] >= h.box[1] && b[2] <= h.box[2] && b[3] <= h.box[3]); // biome-ignore format: a box test
  for (const s of shapes)
    if (
      s.bare &&
      (s.cls === 'subject' || s.cls === 'flush') &&
      counts.get(s.group) === 1 &&
      boxes.has(s.group) &&
      !held(s.box)
    )
      bare.add(s.group);
  const figures = new Map<number, Figure>();
  if (bare.size < 2 || bare.size > JOIN_MAX) return figures;
  const ids = [...bare];
  const parent = new Map(ids.map((g) => [g, g]));
  const root = (g: number): number => {
    let r = g;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(g, r);
    return r;
  };
  const area = (b: readonly number[]) => (b[2]! - b[0]!) * (b[3]! - b[1]!);
  for (let i = 0; i < ids.length; i++) {
    const a = boxes.get(ids[i]!)!;
    for (let j = i + 1; j < ids.length; j++) {
      const b = boxes.get(ids[j]!)!;
      const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
      const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
      if (w <= 0 || h <= 0 || w * h < JOIN_OVERLAP * Math.min(area(a), area(b))) continue;
      parent.set(root(ids[i]!), root(ids[j]!));
    }
  }
  const joint = new Map<number, Figure>();
  for (const g of ids) {
    const b = boxes.get(g)!;
    const r = root(g);
    const u = joint.get(r);
    if (!u) joint.set(r, { box: [...b], pieces: 1 });
    else {
      u.box = [Math.min(u.box[0], b[0]), Math.min(u.box[1], b[1]), Math.max(u.box[2], b[2]), Math.max(u.box[3], b[3])]; // biome-ignore format: a box
      u.pieces++;
    }
  }
  for (const g of ids) figures.set(g, joint.get(root(g))!);
  return figures;
}

/** A shape whose short side is at most this share of its long side is drawn as a streak. */
export const STREAK = 0.7;
/** Within this share of the frame one box lies inside another. */
export const INSIDE_TOL = 0.01;

/** Whether shape i lies inside a background or band drawn before it. */
function inBackdrop(
  shapes: FrameShape[],
  i: number,
  [vx, vy, vw, vh]: [number, number, number, number],
): boolean {
  const [b0, b1, b2, b3] = shapes[i]!.box;
  // A streak, a crest, a grain line is drawn long and thin; a rock or a ball is not.
  if (Math.min(b2 - b0, b3 - b1) > STREAK * Math.max(b2 - b0, b3 - b1)) return false;
  // What shows of it lies inside the backdrop (a sky drawn up to the frame holds the part of
  // a streak running past the frame that is seen).
  const [x0, y0, x1, y1] = [
    Math.max(b0, vx),
    Math.max(b1, vy),
    Math.min(b2, vx + vw),
    Math.min(b3, vy + vh),
  ];
  const tx = INSIDE_TOL * vw;
  const ty = INSIDE_TOL * vh;
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  for (let k = i - 1; k >= 0; k--) {
    const u = shapes[k]!;
    if (u.cls === 'light' || u.cls === 'texture') continue;
    const [u0, v0, u1, v1] = u.box;
    // Drawn straight on the backdrop: the first shape under its middle is that backdrop (a
    // window drawn on a wall, a letter on a sign is on a subject, not on the scenery).
    if (u.cls !== 'background' && u.cls !== 'band') {
      if (cx > u0 && cx < u1 && cy > v0 && cy < v1) return false;
      continue;
    }
    if (x0 >= u0 - tx && y0 >= v0 - ty && x1 <= u1 + tx && y1 <= v1 + ty) return bare(shapes, i);
  }
  return false;
}

/**
 * Whether nothing is drawn on shape i: no later opaque shape centred inside its box. A body
 * carries its eye, a patch, a highlight; a cloud streak or a foam crest carries nothing.
 */
function bare(shapes: FrameShape[], i: number): boolean {
  const [x0, y0, x1, y1] = shapes[i]!.box;
  for (let k = i + 1; k < shapes.length; k++) {
    const u = shapes[k]!;
    if (u.cls === 'light' || u.cls === 'texture' || u.cls === 'background' || u.cls === 'band')
      continue;
    const cx = (u.box[0] + u.box[2]) / 2;
    const cy = (u.box[1] + u.box[3]) / 2;
    if (cx > x0 && cx < x1 && cy > y0 && cy < y1) return false;
  }
  return true;
}

const strongest = (a: Inherited['filter'], b: Inherited['filter']) =>
  a === 'noise' || b === 'noise' ? 'noise' : a === 'glow' || b === 'glow' ? 'glow' : 'crisp';

/** The largest share of a box's extent past one side of the frame. */
export function pastShare(
  [x0, y0, x1, y1]: [number, number, number, number],
  [vx, vy, vw, vh]: [number, number, number, number],
): number {
  const w = x1 - x0;
  const h = y1 - y0;
  if (!(w > 0 && h > 0)) return 0;
  return Math.max((vx - x0) / w, (x1 - vx - vw) / w, (vy - y0) / h, (y1 - vy - vh) / h, 0);
}

/**
 * Whether a box fills the frame from a side it crosses (or meets within a hair): reaching
 * DEEP_REACH into the picture from there, a close-up when it runs CLOSEUP_PAST of its own
 * extent past that side, else scenery. A side along which the box spans the frame is not
 * one it fills the picture from (a band drawn past both sides). Null: neither.
 */
export function reachClass(
  [x0, y0, x1, y1]: [number, number, number, number],
  [vx, vy, vw, vh]: [number, number, number, number],
  drawn: [number, number, number, number] = [vx, vy, vw, vh],
): 'closeup' | 'scenery' | 'sliced' | null {
  const [fx1, fy1] = [vx + vw, vy + vh];
  const w = (Math.min(x1, fx1) - Math.max(x0, vx)) / vw;
  const h = (Math.min(y1, fy1) - Math.max(y0, vy)) / vh;
  const tol = 0.005;
  // Spanning the frame along a side: meeting both ends of it (a band drawn edge to edge),
  // not merely covering most of it (a large subject a hair short of the corners).
  const meets = touching([x0, y0, x1, y1], [vx, vy, vw, vh]);
  const sides: [boolean, number, number, boolean][] = [
    [y0 <= vy + tol * vh, h, (vy - y0) / (y1 - y0), h >= BAND_SPAN && meets.down],
    [x1 >= fx1 - tol * vw, w, (x1 - fx1) / (x1 - x0), w >= BAND_SPAN && meets.across],
    [y1 >= fy1 - tol * vh, h, (y1 - fy1) / (y1 - y0), h >= BAND_SPAN && meets.down],
    [x0 <= vx + tol * vw, w, (vx - x0) / (x1 - x0), w >= BAND_SPAN && meets.across],
  ];
  let deep = false;
  let sliced = false;
  let across = false;
  // A box stopping a hair short of a side while the frame slices it well through another
  // (a manta ray's wingtip 2 units from the right edge, its tail a fifth off the bottom) is
  // a subject the frame cuts, not scenery filling the picture from a side it never crosses.
  const slicedElsewhere = sides.some(([touches, , past]) => touches && past >= RUNS_PAST);
  for (const [i, [touches, reach, past, spans]] of sides.entries()) {
    if (!touches || reach < DEEP_REACH || (past < 0 && slicedElsewhere)) continue;
    if (!spans && past >= CLOSEUP_PAST) {
      // A body continuing down out of the frame (a bust, a neck, a stem) is framed on
      // purpose; a part filling the picture from another side and running on past it is a
      // subject sliced through its body (half a bulldog, a bison's back half). Drapes and
      // columns are drawn up to their side, not far past it: they stay scenery below.
      if (i === 2) return 'closeup';
      // Sliced only where it runs on well past that side (RUNS_PAST, as a cut subject's
      // part): a close-up's ball or hand grazing the top is not a body cut through.
      // …or, from the top, by less but bounded at both sides (top-slice.ts: a vase's neck).
      // …or, from the left or right, by less but clear of the top and the bottom (a train or
      // a boat entering from that side: side-slice.ts).
      const bounded =
        i === 0
          ? slicedByTop([x0, y0, x1, y1], [vx, vy, vw, vh])
          : slicedBySide([x0, y0, x1, y1], [vx, vy, vw, vh], drawn);
      if (past >= RUNS_PAST || bounded) {
        sliced = true;
        // Across most of the picture from that side: nothing framing the scene (a column,
        // a drape, a tree at the side) is that large — it is the subject, sliced, whatever
        // it stands on. Nor does scenery run on far past its side (SLICED_DEEP): a shape
        // sliced through a third of itself is the subject however it grazes another side.
        if (reach >= ACROSS_REACH || past >= SLICED_DEEP) across = true;
        continue;
      }
    }
    deep = true;
  }
  if (across || (sliced && !deep)) return 'sliced';
  return deep ? 'scenery' : null;
}

/** The class of one filled shape (see the header). */
export function shapeClass(
  [x0, y0, x1, y1]: [number, number, number, number],
  areaShare: number,
  p: Inherited,
  refs: Refs,
  [vx, vy, vw, vh]: [number, number, number, number],
  drawn: [number, number, number, number] = [vx, vy, vw, vh],
  closeUps = true,
): ShapeClass {
  if (p.filter === 'noise') return 'texture';
  if (p.filter === 'glow') return 'light';
  if (p.alpha * p.fillOpacity * colourAlpha(p.fill) < LIGHT_ALPHA) return 'light';
  const ref = refId(p.fill);
  const target = ref ? refs.get(ref) : undefined;
  const ttag = target ? tagOf(target) : '';
  if (ttag === 'pattern') return 'texture';
  const gradient = ttag === 'linearGradient' || ttag === 'radialGradient';
  if (gradient && minStopOpacity(target!, refs) < FADING_STOP) return 'light';
  const [fx1, fy1] = [vx + vw, vy + vh];
  const w = (Math.min(x1, fx1) - Math.max(x0, vx)) / vw;
  const h = (Math.min(y1, fy1) - Math.max(y0, vy)) / vh;
  // A backdrop the author's non-square viewBox slices (frame-backdrops.ts) stays one.
  if (areaShare >= BACKGROUND_AREA && coversViewBox([x0, y0, x1, y1], [vx, vy, vw, vh], drawn))
    return 'background';
  const reach = reachClass([x0, y0, x1, y1], [vx, vy, vw, vh], drawn);
  if (reach === 'closeup' && closeUps) return reach;
  // A background or a band is laid edge to edge: it meets the sides it covers. A subject as
  // large (a bison's body in a tight frame) meets the frame only where it is cut.
  // …the canvas's sides, or the viewBox's where the canvas adds margins beyond it (a scene
  // drawn to a near-square viewBox leaves thin empty stripes at the canvas's sides).
  const onCanvas = touching([x0, y0, x1, y1], [vx, vy, vw, vh]);
  const onViewBox = touching([x0, y0, x1, y1], drawn);
  const meets = {
    count: Math.max(onCanvas.count, onViewBox.count),
    across: onCanvas.across || onViewBox.across,
    down: onCanvas.down || onViewBox.down,
  };
  if (areaShare >= BACKGROUND_AREA && meets.count >= 3) return 'background';
  if ((w >= BAND_SPAN && meets.across) || (h >= BAND_SPAN && meets.down)) return 'band';
  if (gradient && areaShare >= 0.3 && meets.count >= 2) return 'background';
  if (reach === 'scenery') return 'scenery';
  return 'subject';
}

/** Within this share of the frame a box meets a side (drawn to it, or a hair short). */
export const MEETS = 0.01;

/** Which sides of the frame a box meets: how many, both left and right, both top and bottom. */
export function touching(
  [x0, y0, x1, y1]: [number, number, number, number],
  [vx, vy, vw, vh]: [number, number, number, number],
): { count: number; across: boolean; down: boolean } {
  const t = y0 <= vy + MEETS * vh;
  const r = x1 >= vx + vw - MEETS * vw;
  const b = y1 >= vy + vh - MEETS * vh;
  const l = x0 <= vx + MEETS * vw;
  return { count: [t, r, b, l].filter(Boolean).length, across: l && r, down: t && b };
}
