// Lines of text running off the frame (issue 40): a title set too large, a label placed past
// the edge ("Neptu…"), a pill label in a row of <use> copies sliced by the side. Each line is
// laid out as the renderer does it — its runs in the fonts the cascade gives them
// (text-style.ts) with the pinned fonts' real advances (text-width.ts), letter- and
// word-spacing, dx shifts, an x list placing characters one by one, the anchor — and its box
// is mapped through every transform, <use> copies included. A line is cut when the frame
// shows part of it and its box runs past the frame by more than TEXT_PAST_EM of its size:
// a glyph's side bearing touching the edge, or kerning the layout leaves out, is not a cut.
import { apply, ID, type M, mul, num, nums, type Pt, parseTransform } from './geometry.ts';
import { styleOf, tagOf } from './overdraw.ts';
import { declaredTextProps, type TextProps, textSheetRules } from './text-style.ts';
import { resolveFont, runWidth, type TextFont } from './text-width.ts';
import type { XNode } from './walker.ts';

/** A line is cut when its box runs past the frame by this many em (a quarter of a glyph). */
export const TEXT_PAST_EM = 0.25;
/** Lines read at most (a bound on work for hostile fan-out through <use>). */
const MAX_LINES = 2000;
/** <use> chains followed this deep. */
const MAX_USE_DEPTH = 6;

/** Not drawn where they stand: only through a reference (<symbol> through <use>). */
const UNDRAWN = new Set([
  'defs', 'symbol', 'pattern', 'mask', 'clipPath', 'marker', 'style', 'script', 'title',
  'desc', 'metadata', 'linearGradient', 'radialGradient', 'filter', 'foreignObject',
]); // biome-ignore format: a list reads better in rows

interface Run {
  text: string;
  font: TextFont;
}

interface Line {
  x: number;
  y: number;
  anchor: string;
  runs: Run[];
  /** dx shifts inside the line. */
  shift: number;
  m: M;
}

interface State {
  m: M;
  props: TextProps;
  font: TextFont;
}

export interface TextsOff {
  /** The lines cut (first 80 characters each). */
  texts: string[];
  /** The largest share of one cut line's width that lies outside the frame. */
  hiddenShare: number;
}

const ROOT_FONT: TextFont = { file: '', size: 16, letterSpacing: 0, wordSpacing: 0 };

/** Lines of text running off the frame `[x, y, width, height]` of the document `root`. */
export function textsOffFrame(root: XNode, frame: [number, number, number, number]): TextsOff {
  const rules = textSheetRules(root);
  const ids = new Map<string, XNode>();
  const index = (nodes: XNode[], depth: number) => {
    for (const n of nodes) {
      const tag = tagOf(n);
      if (tag === '#text' || depth > 100) continue;
      const id = (n[':@'] as Record<string, string> | undefined)?.id;
      if (id !== undefined && !ids.has(id)) ids.set(id, n);
      index((n[tag] as XNode[]) ?? [], depth + 1);
    }
  };
  index([root], 0);
  const lines: Line[] = [];

  const enter = (node: XNode, tag: string, s: State): State => {
    const a = (node[':@'] as Record<string, string>) ?? {};
    const own = declaredTextProps(rules, tag, a);
    const props = { ...s.props, ...own };
    const m = a.transform === undefined ? s.m : mul(s.m, parseTransform(a.transform));
    return { m, props, font: resolveFont(own, s.font, props) };
  };

  const layText = (nodes: XNode[], s: State, line: () => Line, start: (l: Line) => void) => {
    for (const node of nodes) {
      if (lines.length > MAX_LINES) return;
      const text = node['#text'];
      if (typeof text === 'string' || typeof text === 'number') {
        line().runs.push({ text: String(text), font: s.font });
        continue;
      }
      const tag = tagOf(node);
      if (tag !== 'tspan' && tag !== 'a') continue; // textPath follows its path: not a line
      const a = (node[':@'] as Record<string, string>) ?? {};
      if (styleOf(a, 'display') === 'none') continue;
      const ts = enter(node, tag, s);
      placeChunks(a, ts, line, start);
      layText((node[tag] as XNode[]) ?? [], ts, line, start);
    }
  };

  // x/y/dx/dy of a <text> or <tspan>: an x starts a new line (an x list, one per character);
  // a dx shifts the current one.
  const placeChunks = (
    a: Record<string, string>,
    s: State,
    line: () => Line,
    start: (l: Line) => void,
  ) => {
    const xs = a.x === undefined ? [] : nums(a.x);
    const dy = a.dy === undefined ? 0 : (nums(a.dy)[0] ?? 0);
    const cur = line();
    const y = (a.y === undefined ? cur.y : (nums(a.y)[0] ?? cur.y)) + dy;
    const dx = a.dx === undefined ? 0 : (nums(a.dx)[0] ?? 0);
    const anchor = s.props['text-anchor'] ?? 'start';
    if (xs.length === 0) {
      cur.shift += dx;
      cur.y = y;
      return;
    }
    // An x list places each character apart; the line is laid from its first x (a list
    // spreading letters wider than their advances is not read).
    start({ x: xs[0]! + dx, y, anchor, runs: [], shift: 0, m: s.m });
  };

  const walk = (nodes: XNode[], s: State, depth: number, uses: number) => {
    for (const node of nodes) {
      const tag = tagOf(node);
      if (tag === '#text' || depth > 100 || lines.length > MAX_LINES || UNDRAWN.has(tag)) continue;
      const a = (node[':@'] as Record<string, string>) ?? {};
      if (styleOf(a, 'display') === 'none') continue;
      const st = enter(node, tag, s);
      const kids = (node[tag] as XNode[]) ?? [];
      if (tag === 'use') {
        const href = a.href ?? a['xlink:href'] ?? '';
        const target = href.startsWith('#') ? ids.get(href.slice(1)) : undefined;
        if (!target || uses >= MAX_USE_DEPTH) continue;
        const moved = { ...st, m: mul(st.m, [1, 0, 0, 1, num(a.x), num(a.y)]) };
        const ttag = tagOf(target);
        if (ttag === 'symbol')
          walk((target[ttag] as XNode[]) ?? [], enter(target, ttag, moved), depth + 1, uses + 1);
        else walk([target], moved, depth + 1, uses + 1);
        continue;
      }
      if (tag !== 'text') {
        walk(kids, st, depth + 1, uses);
        continue;
      }
      // One <text>: a line from its own x and y, a new one at each <tspan> with an x.
      const own: Line[] = [];
      const line = () => own[own.length - 1]!;
      const start = (l: Line) => own.push(l);
      const seed: Line = { x: 0, y: 0, anchor: 'start', runs: [], shift: 0, m: st.m };
      own.push(seed);
      placeChunks({ ...a, x: a.x ?? '0', y: a.y ?? '0' }, st, line, start);
      own.shift(); // the seed only carried the starting y
      layText(kids, st, line, start);
      lines.push(...own);
    }
  };
  walk([root], { m: ID, props: {}, font: ROOT_FONT }, 0, 0);
  return offFrame(lines, frame);
}

function offFrame(lines: Line[], [vx, vy, vw, vh]: [number, number, number, number]): TextsOff {
  const out: string[] = [];
  let hiddenShare = 0;
  for (const l of lines) {
    const runs = l.runs
      .map((r) => ({ ...r, text: r.text.replace(/\s+/g, ' ') }))
      .filter((r) => r.text !== '');
    if (runs.length === 0) continue;
    runs[0]!.text = runs[0]!.text.trimStart();
    runs[runs.length - 1]!.text = runs[runs.length - 1]!.text.trimEnd();
    const text = runs.map((r) => r.text).join('');
    if (text.trim() === '') continue;
    const size = Math.max(...runs.map((r) => r.font.size));
    const w = runs.reduce((sum, r) => sum + runWidth(r.text, r.font), 0) + l.shift;
    const left = l.anchor === 'middle' ? l.x - w / 2 : l.anchor === 'end' ? l.x - w : l.x;
    const corners: Pt[] = [
      [left, l.y - 0.75 * size],
      [left + w, l.y - 0.75 * size],
      [left + w, l.y + 0.2 * size],
      [left, l.y + 0.2 * size],
    ].map((p) => apply(l.m, p as Pt));
    const xs = corners.map((c) => c[0]);
    const ys = corners.map((c) => c[1]);
    const scale = Math.sqrt(Math.abs(l.m[0] * l.m[3] - l.m[1] * l.m[2]));
    const past = TEXT_PAST_EM * size * scale;
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const shows = x1 > vx && x0 < vx + vw && y1 > vy && y0 < vy + vh;
    const runsOff = x0 < vx - past || x1 > vx + vw + past || y0 < vy - past || y1 > vy + vh + past;
    if (!shows || !runsOff) continue;
    out.push(text.slice(0, 80));
    const hidden = Math.max(
      (Math.max(0, vx - x0) + Math.max(0, x1 - vx - vw)) / Math.max(x1 - x0, 1e-9),
      (Math.max(0, vy - y0) + Math.max(0, y1 - vy - vh)) / Math.max(y1 - y0, 1e-9),
    );
    hiddenShare = Math.max(hiddenShare, Math.min(1, hidden));
  }
  return { texts: out, hiddenShare: Math.round(hiddenShare * 1000) / 1000 };
}
