// Fitting the text hack's label inside the picture. The label is measured with the pinned
// fonts (core/fonts.ts: DejaVu Sans Bold, the face every renderer draws `sans-serif` bold
// with), by resvg's bounding box of the drawn glyphs (ink, kerning included) at 100 units,
// then scaled: text size is linear in font-size. The words are laid out on one to three lines,
// whichever gives the largest letters that fit the visible part of the canvas with a margin,
// so a long prompt on a narrow picture is wrapped and shrunk instead of running off the edge
// (before, 18 of 21 real pictures showed only part of their label).
import { Resvg } from '@resvg/resvg-js';
import { FONT_FAMILIES, FONT_FILES } from '../core/fonts.ts';
import type { Box } from './svg-doc.ts';

/** Ink extents of one line drawn at font-size 1, anchored at its middle, baseline at 0. */
interface LineInk {
  /** Half the width the line needs around its anchor (the larger side). */
  half: number;
  /** Above the baseline. */
  up: number;
  /** Below the baseline. */
  down: number;
}

/** A fitted label: its lines, font size and baselines in the drawing's user units. */
export interface FittedLabel {
  lines: string[];
  size: number;
  /** Anchor x (text-anchor middle) and each line's baseline y. */
  x: number;
  baselines: number[];
}

const BOLD = FONT_FILES.find((f) => f.endsWith('DejaVuSans-Bold.ttf'));
const MEASURE_AT = 100;
const cache = new Map<string, LineInk>();

function xmlText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Ink of a line at font-size 1, measured once per text with the pinned bold face. */
export function measureLine(text: string): LineInk {
  const hit = cache.get(text);
  if (hit) return hit;
  let ink: LineInk;
  const box = BOLD ? resvgInk(text) : null;
  if (box) ink = box;
  else {
    // No pinned font on this machine: DejaVu Sans Bold's widest capitals (W, M) are under
    // 1.05 em and accents stay within 0.95 em up; this over-estimates, so the label still fits.
    ink = { half: (text.length * 1.05) / 2, up: 0.95, down: 0.25 };
  }
  cache.set(text, ink);
  return ink;
}

function resvgInk(text: string): LineInk | null {
  const w = MEASURE_AT * (text.length + 2) * 2;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${MEASURE_AT * 4}"><text x="${w / 2}" y="${MEASURE_AT * 2}" font-family="${FONT_FAMILIES.sansSerif}" font-weight="bold" font-size="${MEASURE_AT}" text-anchor="middle">${xmlText(text)}</text></svg>`;
  const r = new Resvg(svg, {
    font: {
      loadSystemFonts: false,
      fontFiles: [BOLD!],
      defaultFontFamily: FONT_FAMILIES.sansSerif,
    },
    logLevel: 'off',
  });
  const b = r.getBBox();
  if (!b || !(b.width > 0)) return null;
  const left = w / 2 - b.x;
  const right = b.x + b.width - w / 2;
  return {
    half: Math.max(left, right) / MEASURE_AT,
    up: (MEASURE_AT * 2 - b.y) / MEASURE_AT,
    down: Math.max(0, b.y + b.height - MEASURE_AT * 2) / MEASURE_AT,
  };
}

/** Every way to cut `words` into `n` non-empty consecutive lines (≤ 6 words: a few dozen). */
function splits(words: string[], n: number): string[][] {
  if (n === 1) return [[words.join(' ')]];
  const out: string[][] = [];
  for (let i = 1; i <= words.length - n + 1; i++) {
    for (const rest of splits(words.slice(i), n - 1))
      out.push([words.slice(0, i).join(' '), ...rest]);
  }
  return out;
}

/** The label's largest letters, relative to the canvas side (1/9: big, as the hack is). */
export const LABEL_MAX_SIZE = 1 / 9;
/** Room kept free on every side of the label, relative to the visible canvas' shorter side. */
export const LABEL_MARGIN = 0.05;
/** The label may take at most this share of the canvas height (it sits across the bottom). */
const LABEL_MAX_BAND = 0.45;
const LINE_GAP = 0.25;

/**
 * Lay `words` out inside `visible` (the part of the drawing box the render shows): one to
 * three centred lines at the bottom, as large as fits, never larger than 1/9 of the longer side.
 */
export function fitLabel(words: readonly string[], visible: Box): FittedLabel {
  const margin = LABEL_MARGIN * Math.min(visible.w, visible.h);
  const availW = visible.w - 2 * margin;
  const availH = Math.min(visible.h * LABEL_MAX_BAND, visible.h - 2 * margin);
  // The render fits the longer side to the canvas, so h / 9 of a square picture is
  // max(w, h) / 9 here: a wide strip gets letters as large as a square picture would.
  const top = Math.max(visible.w, visible.h) * LABEL_MAX_SIZE;
  let best: { lines: string[]; size: number; inks: LineInk[] } | null = null;
  for (let n = 1; n <= Math.min(3, words.length); n++) {
    for (const lines of splits([...words], n)) {
      const inks = lines.map(measureLine);
      const half = Math.max(...inks.map((i) => i.half));
      // Height at size 1: the first line's ink above, the last one's below, gaps between.
      const tall = inks[0]!.up + inks.at(-1)!.down + (n - 1) * (1 + LINE_GAP);
      const size = Math.min(top, availW / (2 * half), availH / tall);
      if (!best || size > best.size * (1 + 1e-9)) best = { lines, size, inks };
    }
  }
  const { lines, size, inks } = best!;
  const last = visible.y + visible.h - margin - inks.at(-1)!.down * size;
  const baselines = lines.map((_, i) => last - (lines.length - 1 - i) * (1 + LINE_GAP) * size);
  return { lines, size, x: visible.x + visible.w / 2, baselines };
}

/**
 * The part of the drawing box a render shows. With `slice` the box is cut to the square
 * canvas (aligned as asked); otherwise (meet, none) all of it is drawn.
 */
export function visibleBox(box: Box, preserveAspectRatio: string | undefined): Box {
  const par = preserveAspectRatio ?? '';
  if (!/\bslice\b/.test(par) || /^\s*none\b/.test(par)) return box;
  const side = Math.min(box.w, box.h);
  const align = /x(Min|Mid|Max)Y(Min|Mid|Max)/.exec(par);
  const at = (k: string | undefined, free: number) =>
    k === 'Min' ? 0 : k === 'Max' ? free : free / 2;
  return {
    x: box.x + at(align?.[1] ?? 'Mid', box.w - side),
    y: box.y + at(align?.[2] ?? 'Mid', box.h - side),
    w: side,
    h: side,
  };
}
