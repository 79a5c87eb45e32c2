// Just enough of an SVG document's structure for the probe's perturbations, by careful string
// operations on the source (no rewrite of what the policy wrote beyond the edit asked for): the
// root tag and its drawing box, the body between the root tags, and the drawn shapes with their
// source spans and a bounding box from their own geometry (transforms are not applied — the
// "largest shape" is the one whose own numbers span the widest box, which for model-written
// icons is the body or the background, the key part a judge must miss when it is gone).
//
// Why this file does not use the render's parse of the SVG: a perturbation cuts and splices
// the policy's own text, so it needs each element's source span, which a parse tree does
// not keep, and it must run before any render (the perturbed text is what gets rendered).
// It parses no document: fast-xml-parser, from the one shared module (core/xml-parser.ts),
// only reads the attributes of single start tags the string scan has already found.
import { XMLParser } from '../core/xml-parser.ts';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface SvgDoc {
  /** The source text of the opening `<svg …>` tag. */
  open: string;
  /** Everything between the opening tag and the last `</svg>`. */
  body: string;
  /** The root's attributes (names as written). */
  attrs: Record<string, string>;
  /** The drawing box: viewBox, else 0 0 width height, else the browser default 300×150. */
  box: Box;
}

const attrParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  allowBooleanAttributes: true,
});

/** Attributes of one start tag, read by fast-xml-parser (quotes, entities, odd spacing). */
export function tagAttributes(tag: string): Record<string, string> {
  // The tag's end written `/>` by trimming (a /\/?\s*>$/ replace was quadratic in a run of
  // spaces before a second '>').
  let body = tag.trimEnd();
  if (body.endsWith('>')) body = body.slice(0, -1).trimEnd();
  if (body.endsWith('/')) body = body.slice(0, -1);
  const selfClosed = `${body}/>`;
  try {
    const parsed = attrParser.parse(selfClosed) as Record<string, unknown>;
    const node = Object.values(parsed)[0];
    if (!node || typeof node !== 'object') return {};
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) out[k] = String(v);
    return out;
  } catch {
    return {};
  }
}

const num = (v: string | undefined): number | null => {
  if (v === undefined) return null;
  const n = Number.parseFloat(v);
  return Number.isFinite(n) ? n : null;
};

export function parseSvgDoc(svg: string): SvgDoc | null {
  const start = svg.search(/<svg[\s>]/i);
  if (start < 0) return null;
  const openEnd = svg.indexOf('>', start);
  const close = svg.toLowerCase().lastIndexOf('</svg>');
  if (openEnd < 0 || close < openEnd) return null;
  const open = svg.slice(start, openEnd + 1);
  const attrs = tagAttributes(open);
  const body = open.endsWith('/>') ? '' : svg.slice(openEnd + 1, close);
  const vb = (attrs.viewBox ?? attrs.viewbox ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);
  let box: Box;
  if (vb.length === 4 && vb.every(Number.isFinite) && vb[2]! > 0 && vb[3]! > 0) {
    box = { x: vb[0]!, y: vb[1]!, w: vb[2]!, h: vb[3]! };
  } else {
    box = { x: 0, y: 0, w: num(attrs.width) ?? 300, h: num(attrs.height) ?? 150 };
  }
  return { open, body, attrs, box };
}

/** A new document with the same root tag (namespaces, viewBox, size) around another body. */
export function withBody(doc: SvgDoc, body: string): string {
  const open = doc.open.endsWith('/>') ? `${doc.open.slice(0, -2)}>` : doc.open;
  return `${open}${body}</svg>`;
}

/** The root tag with one attribute set (added when absent). */
export function setRootAttr(open: string, name: string, value: string): string {
  const re = new RegExp(`(\\s${name}\\s*=\\s*)("[^"]*"|'[^']*')`, 'i');
  if (re.test(open)) return open.replace(re, `$1"${value}"`);
  return open.replace(/^<svg/i, `<svg ${name}="${value}"`);
}

export interface ShapeSpan {
  tag: string;
  start: number;
  end: number;
  area: number;
}

const SHAPES = 'path|rect|circle|ellipse|polygon|polyline|line';
/** Containers whose shapes are not drawn where they stand (references, clips, masks). */
const HIDDEN = /<(defs|clipPath|mask|symbol|pattern|marker)\b[\s\S]*?<\/\1\s*>/gi;

/** The drawn shapes of a body with their source spans, largest box first. */
export function shapeSpans(body: string): ShapeSpan[] {
  const hidden: [number, number][] = [];
  for (const m of body.matchAll(HIDDEN)) hidden.push([m.index, m.index + m[0].length]);
  const re = new RegExp(`<(${SHAPES})\\b[^>]*?(?:/>|>[\\s\\S]*?</\\1\\s*>)`, 'gi');
  const out: ShapeSpan[] = [];
  for (const m of body.matchAll(re)) {
    const start = m.index;
    if (hidden.some(([a, b]) => start >= a && start < b)) continue;
    const tag = m[1]!.toLowerCase();
    const openTag = m[0].slice(0, m[0].indexOf('>') + 1);
    const box = shapeBox(tag, tagAttributes(openTag));
    out.push({ tag, start, end: start + m[0].length, area: box ? box.w * box.h : 0 });
  }
  return out.sort((a, b) => b.area - a.area || a.start - b.start);
}

function boxOf(xs: number[], ys: number[]): Box | null {
  if (xs.length === 0 || ys.length === 0) return null;
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
}

function shapeBox(tag: string, a: Record<string, string>): Box | null {
  const n = (k: string) => num(a[k]) ?? 0;
  switch (tag) {
    case 'rect':
      return { x: n('x'), y: n('y'), w: n('width'), h: n('height') };
    case 'circle':
      return { x: n('cx') - n('r'), y: n('cy') - n('r'), w: 2 * n('r'), h: 2 * n('r') };
    case 'ellipse':
      return { x: n('cx') - n('rx'), y: n('cy') - n('ry'), w: 2 * n('rx'), h: 2 * n('ry') };
    case 'line':
      return boxOf([n('x1'), n('x2')], [n('y1'), n('y2')]);
    case 'polygon':
    case 'polyline': {
      const v = (a.points ?? '')
        .split(/[\s,]+/)
        .filter(Boolean)
        .map(Number);
      return boxOf(
        v.filter((_, i) => i % 2 === 0),
        v.filter((_, i) => i % 2 === 1),
      );
    }
    default:
      return pathBox(a.d ?? '');
  }
}

/** Per command: how many numbers one repetition takes, and which of them are x / y coordinates. */
const PATH_ARGS: Record<string, { n: number; xs: number[]; ys: number[] }> = {
  m: { n: 2, xs: [0], ys: [1] },
  l: { n: 2, xs: [0], ys: [1] },
  t: { n: 2, xs: [0], ys: [1] },
  h: { n: 1, xs: [0], ys: [] },
  v: { n: 1, xs: [], ys: [0] },
  c: { n: 6, xs: [0, 2, 4], ys: [1, 3, 5] },
  s: { n: 4, xs: [0, 2], ys: [1, 3] },
  q: { n: 4, xs: [0, 2], ys: [1, 3] },
  a: { n: 7, xs: [5], ys: [6] },
  z: { n: 0, xs: [], ys: [] },
};

/**
 * The box of a path's end and control points (control points bound a Bézier curve, so the
 * box can only be too large, never too small; arcs count their end points only).
 */
export function pathBox(d: string): Box | null {
  const xs: number[] = [];
  const ys: number[] = [];
  let cx = 0;
  let cy = 0;
  let sx = 0;
  let sy = 0;
  for (const m of d.matchAll(/([MmLlHhVvCcSsQqTtAaZz])([^MmLlHhVvCcSsQqTtAaZz]*)/g)) {
    const cmd = m[1]!;
    const lower = cmd.toLowerCase();
    const spec = PATH_ARGS[lower]!;
    const rel = cmd !== cmd.toUpperCase();
    if (lower === 'z') {
      cx = sx;
      cy = sy;
      continue;
    }
    const nums = (m[2]!.match(/[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?/g) ?? []).map(Number);
    for (let i = 0; i + spec.n <= nums.length; i += spec.n) {
      const g = nums.slice(i, i + spec.n);
      const bx = rel ? cx : 0;
      const by = rel ? cy : 0;
      for (const k of spec.xs) xs.push(g[k]! + bx);
      for (const k of spec.ys) ys.push(g[k]! + by);
      if (lower === 'h') cx = g[0]! + bx;
      else if (lower === 'v') cy = g[0]! + by;
      else {
        cx = g[spec.n - 2]! + bx;
        cy = g[spec.n - 1]! + by;
      }
      if (lower === 'm' && i === 0) {
        sx = cx;
        sy = cy;
      }
    }
  }
  return boxOf(xs, ys);
}
