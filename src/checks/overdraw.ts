// Overdraw measured from the drawing's geometry: the painted area of every filled shape
// and stroke, clipped to the canvas, summed and divided by the canvas area — the mean number
// of layers painted over each pixel. 1 is one full-bleed background; a landscape of sky,
// hills, ground and a subject is about 2–3; RULER's piles of overlapping translucent blobs
// and strokes are 5 and more. Deterministic (no pixels, no renderer), so every renderer
// gives the same number.
//
// Why not the renderer's `pixels.overdraw`: a finished raster cannot say how many layers
// were painted; it was always 0. The geometry can.
//
// Approximations (documented in docs/artifact-and-checks.md): curves and arcs are sampled
// (4 and 8 points), holes and self-overlap inside one path count as painted area (bounded
// by the path's bounding box), strokes count length × width, CSS classes and <style>
// sheets are not read (presentation attributes and style="" are), text is not counted.
import { XMLParser } from '../core/xml-parser.ts';

type Node = Record<string, unknown>;
type M = [number, number, number, number, number, number];
type Pt = [number, number];

export interface Overdraw {
  /** Σ painted area clipped to the canvas / canvas area. */
  overdraw: number;
  /** Shapes that painted something. */
  shapes: number;
  /** True when the walk stopped at its budget (the value is then a lower bound). */
  capped: boolean;
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: false, // no entity expansion here: the sanitiser already bounded the input
  maxNestedTags: 400,
});

/** Elements whose content is not painted where it stands (only through a reference). */
const NOT_PAINTED = new Set([
  'defs', 'clipPath', 'mask', 'pattern', 'marker', 'symbol', 'linearGradient',
  'radialGradient', 'filter', 'style', 'script', 'title', 'desc', 'metadata', 'text',
  'foreignObject', 'font', 'glyph',
]); // biome-ignore format: a list reads better in rows

/** Shapes visited before stopping: a bound on work for hostile fan-out through <use>. */
const BUDGET = 40_000;

const ID: M = [1, 0, 0, 1, 0, 0];
const mul = (a: M, b: M): M => [
  a[0] * b[0] + a[2] * b[1],
  a[1] * b[0] + a[3] * b[1],
  a[0] * b[2] + a[2] * b[3],
  a[1] * b[2] + a[3] * b[3],
  a[0] * b[4] + a[2] * b[5] + a[4],
  a[1] * b[4] + a[3] * b[5] + a[5],
];
const apply = (m: M, [x, y]: Pt): Pt => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];

function nums(s: string | undefined): number[] {
  if (!s) return [];
  return (s.match(/[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/gi) ?? []).map(Number);
}

function num(s: string | undefined, fallback = 0): number {
  const v = nums(s)[0];
  return v === undefined || !Number.isFinite(v) ? fallback : v;
}

export function parseTransform(t: string | undefined): M {
  let m: M = ID;
  if (!t) return m;
  for (const [, fn, args] of t.matchAll(
    /(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)/g,
  )) {
    const a = nums(args);
    let k: M = ID;
    if (fn === 'matrix' && a.length >= 6) k = a.slice(0, 6) as M;
    else if (fn === 'translate') k = [1, 0, 0, 1, a[0] ?? 0, a[1] ?? 0];
    else if (fn === 'scale') k = [a[0] ?? 1, 0, 0, a[1] ?? a[0] ?? 1, 0, 0];
    else if (fn === 'rotate') {
      const r = ((a[0] ?? 0) * Math.PI) / 180;
      const [cx, cy] = [a[1] ?? 0, a[2] ?? 0];
      k = mul(
        mul([1, 0, 0, 1, cx, cy], [Math.cos(r), Math.sin(r), -Math.sin(r), Math.cos(r), 0, 0]),
        [1, 0, 0, 1, -cx, -cy],
      );
    } else if (fn === 'skewX') k = [1, 0, Math.tan(((a[0] ?? 0) * Math.PI) / 180), 1, 0, 0];
    else if (fn === 'skewY') k = [1, Math.tan(((a[0] ?? 0) * Math.PI) / 180), 0, 1, 0, 0];
    m = mul(m, k);
  }
  return m;
}

/** An SVG arc as sampled points (endpoint to centre parameterisation, SVG 1.1 F.6.5). */
function arcPoints(
  p0: Pt,
  rx: number,
  ry: number,
  phiDeg: number,
  large: boolean,
  sweep: boolean,
  p1: Pt,
): Pt[] {
  if (rx === 0 || ry === 0) return [p1];
  const phi = (phiDeg * Math.PI) / 180;
  const [cos, sin] = [Math.cos(phi), Math.sin(phi)];
  const dx = (p0[0] - p1[0]) / 2;
  const dy = (p0[1] - p1[1]) / 2;
  const x1 = cos * dx + sin * dy;
  const y1 = -sin * dx + cos * dy;
  rx = Math.abs(rx);
  ry = Math.abs(ry);
  const lam = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry);
  if (lam > 1) {
    rx *= Math.sqrt(lam);
    ry *= Math.sqrt(lam);
  }
  const num2 = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1;
  const den = rx * rx * y1 * y1 + ry * ry * x1 * x1;
  const co = (large === sweep ? -1 : 1) * Math.sqrt(Math.max(0, num2 / (den || 1)));
  const cx1 = (co * rx * y1) / ry;
  const cy1 = (-co * ry * x1) / rx;
  const cx = cos * cx1 - sin * cy1 + (p0[0] + p1[0]) / 2;
  const cy = sin * cx1 + cos * cy1 + (p0[1] + p1[1]) / 2;
  const ang = (ux: number, uy: number, vx: number, vy: number) =>
    Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy);
  const t1 = ang(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry);
  let dt = ang((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry);
  if (!sweep && dt > 0) dt -= 2 * Math.PI;
  if (sweep && dt < 0) dt += 2 * Math.PI;
  const out: Pt[] = [];
  for (let i = 1; i <= 8; i++) {
    const t = t1 + (dt * i) / 8;
    out.push([
      cx + rx * Math.cos(t) * cos - ry * Math.sin(t) * sin,
      cy + rx * Math.cos(t) * sin + ry * Math.sin(t) * cos,
    ]);
  }
  return out;
}

/** Tokens are commands (one letter) or numbers (start with a digit, sign or dot). */
const isCommand = (t: string) => {
  const c = t.charCodeAt(0) | 32;
  return c >= 97 && c <= 122;
};

/** A path's subpaths as sampled polygons (user units, before transforms). */
export function pathPolygons(d: string): Pt[][] {
  const tokens = d.match(/[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g) ?? [];
  const polys: Pt[][] = [];
  let cur: Pt[] = [];
  let p: Pt = [0, 0];
  let start: Pt = [0, 0];
  let ctrl: Pt | null = null;
  let cmd = '';
  let i = 0;
  const n = () => Number(tokens[i++]);
  const flush = () => {
    if (cur.length > 1) polys.push(cur);
    cur = [];
  };
  while (i < tokens.length) {
    if (isCommand(tokens[i]!)) cmd = tokens[i++]!;
    else if (cmd === '') break;
    const rel = cmd === cmd.toLowerCase();
    const C = cmd.toUpperCase();
    const ox = rel ? p[0] : 0;
    const oy = rel ? p[1] : 0;
    if (C === 'Z') {
      flush();
      p = start;
      ctrl = null;
      if (i < tokens.length && !isCommand(tokens[i]!)) i++; // stray number
      cmd = '';
      continue;
    }
    if (C === 'M') {
      flush();
      p = [ox + n(), oy + n()];
      start = p;
      cur = [p];
      cmd = rel ? 'l' : 'L'; // further pairs are lines
      ctrl = null;
    } else if (C === 'L' || C === 'T') {
      p = [ox + n(), oy + n()];
      cur.push(p);
      ctrl = null;
    } else if (C === 'H') {
      p = [ox + n(), p[1]];
      cur.push(p);
    } else if (C === 'V') {
      p = [p[0], oy + n()];
      cur.push(p);
    } else if (C === 'C' || C === 'S' || C === 'Q') {
      const c1: Pt =
        C === 'S' ? (ctrl ? [2 * p[0] - ctrl[0], 2 * p[1] - ctrl[1]] : p) : [ox + n(), oy + n()];
      const c2: Pt = C === 'Q' ? c1 : [ox + n(), oy + n()];
      const e: Pt = [ox + n(), oy + n()];
      for (const t of [0.25, 0.5, 0.75]) {
        const u = 1 - t;
        cur.push([
          u * u * u * p[0] + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0] + t * t * t * e[0],
          u * u * u * p[1] + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1] + t * t * t * e[1],
        ]);
      }
      cur.push(e);
      ctrl = c2;
      p = e;
    } else if (C === 'A') {
      const [rx, ry, rot, large, sw] = [n(), n(), n(), n(), n()];
      const e: Pt = [ox + n(), oy + n()];
      cur.push(...arcPoints(p, rx, ry, rot, large !== 0, sw !== 0, e));
      p = e;
      ctrl = null;
    } else i++;
    if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) return polys;
  }
  flush();
  return polys;
}

function shoelace(pts: Pt[]): number {
  let s = 0;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++)
    s += (pts[j]![0] + pts[i]![0]) * (pts[j]![1] - pts[i]![1]);
  return Math.abs(s) / 2;
}

/** Sutherland–Hodgman against an axis-aligned rectangle. */
function clip(pts: Pt[], x0: number, y0: number, x1: number, y1: number): Pt[] {
  const edges: [(p: Pt) => boolean, (a: Pt, b: Pt) => Pt][] = [
    [(p) => p[0] >= x0, (a, b) => [x0, a[1] + ((b[1] - a[1]) * (x0 - a[0])) / (b[0] - a[0])]],
    [(p) => p[0] <= x1, (a, b) => [x1, a[1] + ((b[1] - a[1]) * (x1 - a[0])) / (b[0] - a[0])]],
    [(p) => p[1] >= y0, (a, b) => [a[0] + ((b[0] - a[0]) * (y0 - a[1])) / (b[1] - a[1]), y0]],
    [(p) => p[1] <= y1, (a, b) => [a[0] + ((b[0] - a[0]) * (y1 - a[1])) / (b[1] - a[1]), y1]],
  ];
  let out = pts;
  for (const [inside, cut] of edges) {
    const input = out;
    out = [];
    for (let i = 0; i < input.length; i++) {
      const a = input[(i + input.length - 1) % input.length]!;
      const b = input[i]!;
      if (inside(b)) {
        if (!inside(a)) out.push(cut(a, b));
        out.push(b);
      } else if (inside(a)) out.push(cut(a, b));
    }
    if (out.length === 0) break;
  }
  return out;
}

/** Area of a polygon inside the canvas; clipping only when it crosses the canvas edge. */
function clippedArea(pts: Pt[], x0: number, y0: number, x1: number, y1: number): number {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of pts) {
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  if (maxX <= x0 || minX >= x1 || maxY <= y0 || minY >= y1) return 0;
  if (minX >= x0 && maxX <= x1 && minY >= y0 && maxY <= y1) return shoelace(pts);
  return shoelace(clip(pts, x0, y0, x1, y1));
}

function styleOf(a: Record<string, string>, prop: string): string | undefined {
  const m = a.style ? new RegExp(`(?:^|;)\\s*${prop}\\s*:\\s*([^;!]+)`, 'i').exec(a.style) : null;
  return (m?.[1] ?? a[prop])?.trim();
}

interface Paint {
  fill: boolean;
  stroke: boolean;
  width: number;
}

function localShape(tag: string, a: Record<string, string>): Pt[][] | null {
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

function canvasOf(a: Record<string, string>): [number, number, number, number] {
  const vb = nums(a.viewBox);
  if (vb.length === 4 && vb[2]! > 0 && vb[3]! > 0) return vb as [number, number, number, number];
  const w = num(a.width, 0) || 512;
  const h = num(a.height, 0) || 512;
  return [0, 0, w, h];
}

const tagOf = (node: Node) => Object.keys(node).find((k) => k !== ':@') ?? '';

/** Overdraw of an SVG document, or null when it does not parse or has no root <svg>. */
export function measureOverdraw(svg: string): Overdraw | null {
  let doc: Node[];
  try {
    doc = parser.parse(svg) as Node[];
  } catch {
    return null;
  }
  const root = doc.find((n) => tagOf(n) === 'svg');
  if (!root) return null;
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
  const paintShape = (polys: Pt[][], m: M, p: Paint, closedShape: boolean) => {
    const scale = Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
    let area = 0;
    for (const local of polys) {
      const pts = local.map((q) => apply(m, q));
      if (p.fill && closedShape && pts.length > 2)
        area += clippedArea(pts, vx, vy, vx + vw, vy + vh);
      if (p.stroke && p.width > 0) {
        let len = 0;
        for (let k = 1; k < pts.length; k++) {
          const [a, b] = [pts[k - 1]!, pts[k]!];
          const mx = (a[0] + b[0]) / 2;
          const my = (a[1] + b[1]) / 2;
          if (mx >= vx && mx <= vx + vw && my >= vy && my <= vy + vh)
            len += Math.hypot(b[0] - a[0], b[1] - a[1]);
        }
        area += len * p.width * scale;
      }
    }
    if (area > 0) {
      painted += area;
      shapes++;
    }
  };
  const walk = (nodes: Node[], m: M, inherited: Paint, depth: number, useDepth: number) => {
    for (const node of nodes) {
      if (++visits > BUDGET || depth > 200) return;
      const tag = tagOf(node);
      if (tag === '' || tag === '#text' || NOT_PAINTED.has(tag)) continue;
      const a = (node[':@'] as Record<string, string>) ?? {};
      if (styleOf(a, 'display') === 'none' || styleOf(a, 'visibility') === 'hidden') continue;
      if (styleOf(a, 'opacity') !== undefined && num(styleOf(a, 'opacity'), 1) <= 0) continue;
      const fill = styleOf(a, 'fill');
      const stroke = styleOf(a, 'stroke');
      const sw = styleOf(a, 'stroke-width');
      const p: Paint = {
        fill: fill === undefined ? inherited.fill : fill !== 'none' && fill !== 'transparent',
        stroke:
          stroke === undefined ? inherited.stroke : stroke !== 'none' && stroke !== 'transparent',
        width: sw === undefined ? inherited.width : num(sw, 1),
      };
      if (num(styleOf(a, 'fill-opacity'), 1) <= 0) p.fill = false;
      const mm = mul(m, parseTransform(a.transform));
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
      const polys = localShape(tag, a);
      if (polys) {
        paintShape(polys, mm, p, tag !== 'line'); // a line has no inside; a polyline fills
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
  walk(top, ID, { fill: true, stroke: false, width: 1 }, 0, 0);
  return { overdraw: painted / (vw * vh), shapes, capped: visits > BUDGET };
}
