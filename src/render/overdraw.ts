// Overdraw measured from the drawing's geometry: the painted area of every filled shape
// and stroke, clipped to the canvas, summed and divided by the canvas area — the mean number
// of layers painted over each pixel. 1 is one full-bleed background; a landscape of sky,
// hills, ground and a subject is about 2–3; RULER's piles of overlapping translucent blobs
// and strokes are 5 and more. Deterministic (no pixels, no renderer), so every renderer
// gives the same number. The clutter check reads it from CodeStats. Drawings with fewer than
// OVERDRAW_MIN_ELEMENTS elements after <use> are not measured (they cannot pile up, and
// three in four real icons are that small: the walk would cost them time for nothing).
//
// It walks the tree the sanitiser already parsed (sanitize.ts), in the render worker: the SVG
// is parsed once, and a hostile file's geometry costs the killable worker, not the caller.
// It reads the document as written (the raw attributes, the root's own viewBox before it
// is fitted to the canvas), not the sanitised copy.
//
// Why not the renderer's `pixels.overdraw`: a finished raster cannot say how many layers
// were painted; it was always 0. The geometry can.
//
// Approximations (documented in docs/artifact-and-checks.md): curves and arcs are sampled
// (geometry.ts), holes and self-overlap inside one path count as painted area (bounded by
// the path's bounding box), strokes count length × width, CSS classes and <style> sheets are
// not read (presentation attributes and style="" are), text is not counted. Element names
// are compared as written: a prefixed <svg:rect> is not a shape.
import {
  apply,
  clippedArea,
  ID,
  type M,
  mul,
  num,
  nums,
  type Pt,
  parseTransform,
  pathPolygons,
} from './geometry.ts';
import type { CodeOverdraw } from './types.ts';
import type { XNode } from './walker.ts';

type Node = XNode;

/** Below this many elements after <use> nothing can pile up: overdraw is not measured. */
export const OVERDRAW_MIN_ELEMENTS = 20;

/** Elements whose content is not painted where it stands (only through a reference). */
export const NOT_PAINTED = new Set([
  'defs', 'clipPath', 'mask', 'pattern', 'marker', 'symbol', 'linearGradient',
  'radialGradient', 'filter', 'style', 'script', 'title', 'desc', 'metadata', 'text',
  'foreignObject', 'font', 'glyph',
]); // biome-ignore format: a list reads better in rows

/** Shapes visited before stopping: a bound on work for hostile fan-out through <use>. */
const BUDGET = 40_000;

/** One compiled pattern per property read from style="" (a handful, reused every element). */
const STYLE_PROP = new Map<string, RegExp>();

/** A property from style="" (which wins), else the presentation attribute. */
export function styleOf(a: Record<string, string>, prop: string): string | undefined {
  let re = STYLE_PROP.get(prop);
  if (!re) {
    re = new RegExp(`(?:^|;)\\s*${prop}\\s*:\\s*([^;!]+)`, 'i');
    STYLE_PROP.set(prop, re);
  }
  const m = a.style ? re.exec(a.style) : null;
  return (m?.[1] ?? a[prop])?.trim();
}

interface Paint {
  fill: boolean;
  stroke: boolean;
  width: number;
  /** Product of the `opacity` of this element and its ancestors (group opacity composes). */
  opacity: number;
  /** fill-opacity and stroke-opacity (inherited properties), times a colour's own alpha. */
  fillOpacity: number;
  strokeOpacity: number;
  /** The fill is a paint server (url(#…)): its opacity is in its stops, not known here. */
  fillRef?: boolean;
}

/** The alpha a colour carries itself: rgba()/hsla(), #rgba, #rrggbbaa; 1 otherwise. */
export function colourAlpha(colour: string | undefined): number {
  if (!colour) return 1;
  const c = colour.trim().toLowerCase();
  const fn = /^(?:rgb|hsl)a?\((.*)\)$/.exec(c);
  if (fn) {
    const parts = fn[1]!.split(/\s*[,/]\s*|\s+/).filter((x) => x !== '');
    if (parts.length < 4) return 1;
    const v = parts[3]!;
    const a = v.endsWith('%') ? Number.parseFloat(v) / 100 : Number.parseFloat(v);
    return Number.isFinite(a) ? Math.min(1, Math.max(0, a)) : 1;
  }
  if (/^#[0-9a-f]{4}$/.test(c)) return Number.parseInt(c[4]! + c[4]!, 16) / 255;
  if (/^#[0-9a-f]{8}$/.test(c)) return Number.parseInt(c.slice(7, 9), 16) / 255;
  return 1;
}

const clamp01 = (v: number) => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 1);

/**
 * How much of a shape's painted area counts as a layer: a translucent shape counts by the
 * larger of its alpha and the share of the canvas it leaves uncovered. A full-canvas tint,
 * vignette or haze at 2–45 % opacity changes the colour of the picture, not its content,
 * and counts as its alpha (a 0.1 overlay is a tenth of a layer); a small translucent mark
 * is a distinct mark and counts nearly whole, so a pile of translucent blobs still piles up.
 */
export function visibleWeight(alpha: number, share: number): number {
  return Math.max(clamp01(alpha), 1 - clamp01(share));
}

/**
 * Shapes already sampled in one parse, by the element's attribute object: overdraw.ts and
 * frame-shapes.ts both read every filled shape of the sanitiser's parse, and sampling a path
 * twice was a sixth of sanitising a Fluent Emoji. A plain Map made per parse and dropped with
 * it (sanitize.ts), not a module-wide WeakMap: ephemeron tables cost the GC. Read-only for
 * every caller: the arrays are shared.
 */
export type ShapeMemo = Map<Record<string, string>, Pt[][] | null>;

/** A filled shape's subpaths in its own user units (null: not a basic shape or path). */
export function localShape(
  tag: string,
  a: Record<string, string>,
  memo?: ShapeMemo,
): Pt[][] | null {
  if (!memo) return shapeOf(tag, a);
  let polys = memo.get(a);
  if (polys === undefined) {
    polys = shapeOf(tag, a);
    memo.set(a, polys);
  }
  return polys;
}

function shapeOf(tag: string, a: Record<string, string>): Pt[][] | null {
  switch (tag) {
    case 'rect': {
      const [x, y, w, h] = [num(a.x), num(a.y), num(a.width), num(a.height)];
      return w > 0 && h > 0
        ? [
            [
              [x, y],
              [x + w, y],
              [x + w, y + h],
              [x, y + h],
            ],
          ]
        : [];
    }
    case 'circle':
    case 'ellipse': {
      const rx = tag === 'circle' ? num(a.r) : num(a.rx);
      const ry = tag === 'circle' ? num(a.r) : num(a.ry);
      const [cx, cy] = [num(a.cx), num(a.cy)];
      if (!(rx > 0 && ry > 0)) return [];
      const pts: Pt[] = [];
      for (let k = 0; k < 16; k++)
        pts.push([cx + rx * Math.cos((k * Math.PI) / 8), cy + ry * Math.sin((k * Math.PI) / 8)]);
      return [pts];
    }
    case 'line':
      return [
        [
          [num(a.x1), num(a.y1)],
          [num(a.x2), num(a.y2)],
        ],
      ];
    case 'polyline':
    case 'polygon': {
      const v = nums(a.points);
      const pts: Pt[] = [];
      for (let k = 0; k + 1 < v.length; k += 2) pts.push([v[k]!, v[k + 1]!]);
      return [pts];
    }
    case 'path':
      return pathPolygons(a.d ?? '');
    default:
      return null;
  }
}

export function canvasOf(a: Record<string, string>): [number, number, number, number] {
  const vb = nums(a.viewBox);
  if (vb.length === 4 && vb[2]! > 0 && vb[3]! > 0) return vb as [number, number, number, number];
  const w = num(a.width, 0) || 512;
  const h = num(a.height, 0) || 512;
  return [0, 0, w, h];
}

/** An opacity value: a number or a percentage. */
export function opacityValue(v: string): number {
  const t = v.trim();
  return t.endsWith('%') ? num(t.slice(0, -1), 100) / 100 : num(t, 1);
}

export const tagOf = (node: Node) => Object.keys(node).find((k) => k !== ':@') ?? '';

/**
 * One shape as the overdraw walk saw it, for readers that weigh more than its area (waste.ts:
 * duplicates, shapes hidden under later ones, noise). `polys` are in canvas units, after
 * transforms (shared arrays: read-only). A shape the walk skips unpainted (display:none,
 * visibility:hidden, opacity 0) is reported with `hidden` set and no geometry.
 */
export interface SeenShape {
  tag: string;
  attrs: Record<string, string>;
  polys: Pt[][];
  /** The walk's transform for this shape (a stacked copy has the same one). */
  m: M;
  fill: boolean;
  stroke: boolean;
  closed: boolean;
  /** Opacity × fill-opacity and opacity × stroke-opacity. */
  fillAlpha: number;
  strokeAlpha: number;
  /** Fill and stroke area inside the canvas, canvas units (before any weight). */
  fillArea: number;
  strokeArea: number;
  /** The fill is a gradient or pattern (url(#…)): how opaque it is is not known. */
  fillRef: boolean;
  /** Skipped unpainted: display:none, visibility:hidden or opacity 0. */
  hidden?: boolean;
  /** For a skipped element: it and its descendants (a hidden group hides them all). */
  elements?: number;
}

/** An element and its descendants, counted up to `cap`. */
function subtreeSize(node: Node, cap: number): number {
  let n = 1;
  const kids = node[tagOf(node)];
  if (Array.isArray(kids))
    for (const k of kids as Node[]) {
      if (n >= cap) break;
      if (tagOf(k) !== '#text') n += subtreeSize(k, cap - n);
    }
  return n;
}

/**
 * Overdraw of a parsed document, given its root `<svg>` node (fast-xml-parser's ordered
 * tree, as the sanitiser parses it). `seen`, if given, is told every shape in paint order.
 */
export function measureOverdraw(
  root: Node,
  memo?: ShapeMemo,
  seen?: (shape: SeenShape) => void,
): CodeOverdraw {
  const ids = new Map<string, Node>();
  const index = (nodes: Node[], depth: number) => {
    if (depth > 400) return;
    for (const n of nodes) {
      const id = (n[':@'] as Record<string, string> | undefined)?.id;
      if (id && !ids.has(id)) ids.set(id, n);
      const kids = n[tagOf(n)];
      if (Array.isArray(kids)) index(kids as Node[], depth + 1);
    }
  };
  index([root], 0);
  const [vx, vy, vw, vh] = canvasOf((root[':@'] as Record<string, string>) ?? {});
  let painted = 0;
  let shapes = 0;
  let visits = 0;
  const canvas = vw * vh;
  const paintShape = (polys: Pt[][], m: M, p: Paint, closedShape: boolean, node?: Node) => {
    const scale = Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
    let fillArea = 0;
    let strokeArea = 0;
    const placed: Pt[][] = [];
    for (const local of polys) {
      const pts = local.map((q) => apply(m, q));
      if (seen) placed.push(pts);
      if (p.fill && closedShape && pts.length > 2)
        fillArea += clippedArea(pts, vx, vy, vx + vw, vy + vh);
      if (p.stroke && p.width > 0) {
        let len = 0;
        for (let k = 1; k < pts.length; k++) {
          const [a, b] = [pts[k - 1]!, pts[k]!];
          const mx = (a[0] + b[0]) / 2;
          const my = (a[1] + b[1]) / 2;
          if (mx >= vx && mx <= vx + vw && my >= vy && my <= vy + vh)
            len += Math.hypot(b[0] - a[0], b[1] - a[1]);
        }
        strokeArea += len * p.width * scale;
      }
    }
    const share = (fillArea + strokeArea) / canvas;
    const area =
      fillArea * visibleWeight(p.opacity * p.fillOpacity, share) +
      strokeArea * visibleWeight(p.opacity * p.strokeOpacity, share);
    if (area > 0) {
      painted += area;
      shapes++;
    }
    if (seen && node) {
      const tag = tagOf(node);
      seen({
        tag,
        attrs: (node[':@'] as Record<string, string>) ?? {},
        polys: placed,
        m,
        fill: p.fill,
        stroke: p.stroke && p.width > 0,
        closed: closedShape,
        fillAlpha: p.opacity * p.fillOpacity,
        strokeAlpha: p.opacity * p.strokeOpacity,
        fillArea,
        strokeArea,
        fillRef: p.fillRef === true,
      });
    }
  };
  const skipped = (node: Node, a: Record<string, string>, m: M) =>
    seen?.({
      tag: tagOf(node),
      attrs: a,
      polys: [],
      m,
      fill: false,
      stroke: false,
      closed: false,
      fillAlpha: 0,
      strokeAlpha: 0,
      fillArea: 0,
      strokeArea: 0,
      fillRef: false,
      hidden: true,
      elements: subtreeSize(node, BUDGET),
    });
  const walk = (nodes: Node[], m: M, inherited: Paint, depth: number, useDepth: number) => {
    for (const node of nodes) {
      const tag = tagOf(node);
      // Text nodes are not visits: the sanitiser's parse keeps whitespace between elements.
      if (tag === '#text') continue;
      if (++visits > BUDGET || depth > 200) return;
      if (tag === '' || NOT_PAINTED.has(tag)) continue;
      const a = (node[':@'] as Record<string, string>) ?? {};
      if (
        styleOf(a, 'display') === 'none' ||
        styleOf(a, 'visibility') === 'hidden' ||
        (styleOf(a, 'opacity') !== undefined && num(styleOf(a, 'opacity'), 1) <= 0)
      ) {
        skipped(node, a, m);
        continue;
      }
      const fill = styleOf(a, 'fill');
      const stroke = styleOf(a, 'stroke');
      const sw = styleOf(a, 'stroke-width');
      const fo = styleOf(a, 'fill-opacity');
      const so = styleOf(a, 'stroke-opacity');
      const op = styleOf(a, 'opacity');
      const p: Paint = {
        fill: fill === undefined ? inherited.fill : fill !== 'none' && fill !== 'transparent',
        stroke:
          stroke === undefined ? inherited.stroke : stroke !== 'none' && stroke !== 'transparent',
        width: sw === undefined ? inherited.width : num(sw, 1),
        opacity: inherited.opacity * (op === undefined ? 1 : clamp01(opacityValue(op))),
        fillOpacity:
          (fo === undefined ? inherited.fillOpacity : clamp01(opacityValue(fo))) *
          (fill === undefined ? 1 : colourAlpha(fill)),
        strokeOpacity:
          (so === undefined ? inherited.strokeOpacity : clamp01(opacityValue(so))) *
          (stroke === undefined ? 1 : colourAlpha(stroke)),
        fillRef: fill === undefined ? inherited.fillRef : fill.startsWith('url('),
      };
      if (num(styleOf(a, 'fill-opacity'), 1) <= 0) p.fill = false;
      const mm = a.transform === undefined ? m : mul(m, parseTransform(a.transform));
      if (tag === 'use') {
        const href = (a.href ?? a['xlink:href'] ?? '').trim();
        const target = href.startsWith('#') ? ids.get(href.slice(1)) : undefined;
        if (!target || useDepth > 8) continue;
        const at = mul(mm, [1, 0, 0, 1, num(a.x), num(a.y)]);
        const ttag = tagOf(target);
        const kids = ttag === 'symbol' ? (target[ttag] as Node[]) : [target];
        walk(kids, at, p, depth + 1, useDepth + 1);
        continue;
      }
      const polys = localShape(tag, a, memo);
      if (polys) {
        paintShape(polys, mm, p, tag !== 'line', node); // a line has no inside; a polyline fills
        continue;
      }
      const kids = node[tag];
      if (Array.isArray(kids)) {
        // A nested <svg> opens its own viewport; its content is measured in the outer one.
        walk(kids as Node[], mm, p, depth + 1, useDepth);
      }
    }
  };
  const top = root.svg as Node[];
  walk(
    top,
    ID,
    { fill: true, stroke: false, width: 1, opacity: 1, fillOpacity: 1, strokeOpacity: 1 },
    0,
    0,
  );
  return { layers: painted / (vw * vh), shapes, capped: visits > BUDGET };
}
