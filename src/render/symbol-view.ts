// Where a <use> draws a <symbol> that has its own viewBox (issue 40): the symbol's viewBox is
// fitted into the viewport the <use> gives it (its width and height, 100 % of the drawing's
// viewBox when absent) per the symbol's preserveAspectRatio, as librsvg draws it. Without this
// a leaf drawn in its symbol's own units (viewBox "-50 -90 100 100") placed at x=190 y=70 was
// read 90 units higher and smaller than it shows: running past the top of the frame.
import { parseAspectRatio, parseViewBox, rootLength } from './fit.ts';
import type { M } from './geometry.ts';

/** A use's width or height in user units: a length, a share of `whole`, or `whole` (auto). */
function viewportLength(value: string | undefined, whole: number): number {
  const v = value?.trim();
  if (v === undefined || v === '' || v === 'auto') return whole;
  const pct = /^([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*%$/.exec(v);
  if (pct) return (Number(pct[1]) / 100) * whole;
  return rootLength(v);
}

/**
 * The matrix placing a symbol's content in the viewport of the <use> that draws it (after the
 * use's own x/y translation), or null when the symbol has no usable viewBox (its content is
 * then in the use's own units) or the viewport is empty (nothing is drawn: the caller skips).
 */
export function symbolViewBox(
  symbol: Record<string, string>,
  use: Record<string, string>,
  [, , vw, vh]: [number, number, number, number],
): M | null {
  const vb = parseViewBox(symbol.viewBox);
  if (!vb || !(vb[2] > 0 && vb[3] > 0)) return null;
  const w = viewportLength(use.width, vw);
  const h = viewportLength(use.height, vh);
  if (!(w > 0 && h > 0)) return null;
  const a = parseAspectRatio(symbol.preserveAspectRatio);
  let sx = w / vb[2];
  let sy = h / vb[3];
  let tx = 0;
  let ty = 0;
  if (!a.none) {
    const s = a.slice ? Math.max(sx, sy) : Math.min(sx, sy);
    sx = s;
    sy = s;
    tx = a.ax * (w - vb[2] * s);
    ty = a.ay * (h - vb[3] * s);
  }
  return [sx, 0, 0, sy, tx - vb[0] * sx, ty - vb[1] * sy];
}
