// Plane geometry for the overdraw measure (overdraw.ts): 2-D affine matrices and SVG
// transform lists, path data and arcs sampled into polygons, polygon area clipped to the
// canvas. Curves are sampled at 4 points and arcs at 8: the measure is a count of layers,
// not a rasteriser, and the sampling keeps a circle's area within ~5%.

import { tokenizePath } from './path-tokens.ts';

/** An affine matrix [a b c d e f], as in SVG's matrix(). */
export type M = [number, number, number, number, number, number];
export type Pt = [number, number];

export const ID: M = [1, 0, 0, 1, 0, 0];
export const mul = (a: M, b: M): M => [
  a[0] * b[0] + a[2] * b[1],
  a[1] * b[0] + a[3] * b[1],
  a[0] * b[2] + a[2] * b[3],
  a[1] * b[2] + a[3] * b[3],
  a[0] * b[4] + a[2] * b[5] + a[4],
  a[1] * b[4] + a[3] * b[5] + a[5],
];
export const apply = (m: M, [x, y]: Pt): Pt => [
  m[0] * x + m[2] * y + m[4],
  m[1] * x + m[3] * y + m[5],
];

export function nums(s: string | undefined): number[] {
  if (!s) return [];
  return (s.match(/[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?/gi) ?? []).map(Number);
}

export function num(s: string | undefined, fallback = 0): number {
  const v = nums(s)[0];
  return v === undefined || !Number.isFinite(v) ? fallback : v;
}

export function parseTransform(t: string | undefined): M {
  let m: M = ID;
  if (!t) return m;
  for (const [, fn, args] of t.matchAll(
    /(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^()]*)\)/g,
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

/** Where each Bézier segment is sampled, besides its end point. */
const CURVE_SAMPLES = [0.25, 0.5, 0.75];

/** Upper-case char codes of the path commands. */
const A = 65;
const CUBIC = 67;
const H = 72;
const L = 76;
const M_ = 77;
const Q = 81;
const S = 83;
const T = 84;
const V = 86;
const Z = 90;

/** A path's subpaths as sampled polygons (user units, before transforms). */
export function pathPolygons(d: string): Pt[][] {
  // Commands as char codes: `rel` is lower case, `C` the upper-case code (see path-tokens.ts).
  const { cmds, vals } = tokenizePath(d);
  const count = cmds.length;
  const polys: Pt[][] = [];
  let cur: Pt[] = [];
  let p: Pt = [0, 0];
  let start: Pt = [0, 0];
  let ctrl: Pt | null = null;
  let cmd = 0;
  let i = 0;
  // Past the end a read is NaN, as Number(undefined) was.
  const n = () => {
    const v = i < count ? vals[i]! : Number.NaN;
    i++;
    return v;
  };
  const flush = () => {
    if (cur.length > 1) polys.push(cur);
    cur = [];
  };
  while (i < count) {
    if (cmds[i] !== 0) cmd = cmds[i++]!;
    else if (cmd === 0) break;
    const rel = cmd >= 97;
    const C = cmd & ~32;
    const ox = rel ? p[0] : 0;
    const oy = rel ? p[1] : 0;
    if (C === Z) {
      flush();
      p = start;
      ctrl = null;
      if (i < count && cmds[i] === 0) i++; // stray number
      cmd = 0;
      continue;
    }
    if (C === M_) {
      flush();
      p = [ox + n(), oy + n()];
      start = p;
      cur = [p];
      cmd = rel ? L + 32 : L; // further pairs are lines
      ctrl = null;
    } else if (C === L || C === T) {
      p = [ox + n(), oy + n()];
      cur.push(p);
      ctrl = null;
    } else if (C === H) {
      p = [ox + n(), p[1]];
      cur.push(p);
    } else if (C === V) {
      p = [p[0], oy + n()];
      cur.push(p);
    } else if (C === CUBIC || C === S || C === Q) {
      const c1: Pt =
        C === S ? (ctrl ? [2 * p[0] - ctrl[0], 2 * p[1] - ctrl[1]] : p) : [ox + n(), oy + n()];
      const c2: Pt = C === Q ? c1 : [ox + n(), oy + n()];
      const e: Pt = [ox + n(), oy + n()];
      for (const t of CURVE_SAMPLES) {
        const u = 1 - t;
        cur.push([
          u * u * u * p[0] + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0] + t * t * t * e[0],
          u * u * u * p[1] + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1] + t * t * t * e[1],
        ]);
      }
      cur.push(e);
      ctrl = c2;
      p = e;
    } else if (C === A) {
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
export function clippedArea(pts: Pt[], x0: number, y0: number, x1: number, y1: number): number {
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
