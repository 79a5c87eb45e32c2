// Fits the drawing to a square canvas the way CairoSVG's svg2png(output_width=S,
// output_height=S) does: the root's viewBox (or 0 0 width height) is scaled to fit and
// centred per preserveAspectRatio (default xMidYMid meet). We rewrite the root's
// width/height to S and give it a viewBox, so librsvg then draws the same mapping.

/**
 * sharp's density for rendering. At 96 dpi librsvg resolves physical units (pt, mm, in)
 * as CairoSVG does (1in = 96 user units; a 12pt font is 16 units). libvips then scales the
 * root's CSS px by 96/72, so the root gets ¾ of the output size in px (exact for every
 * size from 1 to 2,100, checked).
 */
export const RENDER_DENSITY = 96;
const ROOT_PX_PER_OUTPUT_PX = 72 / RENDER_DENSITY;

// CSS units in px at 96 dpi, as CairoSVG resolves them (1em = 12pt = 16px).
const UNITS: Record<string, number> = {
  '': 1,
  px: 1,
  pt: 96 / 72,
  pc: 16,
  in: 96,
  cm: 96 / 2.54,
  mm: 96 / 25.4,
  q: 96 / 101.6,
  em: 16,
  ex: 8,
};

/** A root length in user units; 0 for percentages or anything unreadable (CairoSVG too). */
export function rootLength(value: string | undefined): number {
  if (value === undefined) return 0;
  // Trimmed first: `\s*([a-zA-Z%]*)\s*$` would split a run of spaces between its two `\s*`
  // every way on a value that then fails (quadratic in the run).
  const m = /^([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*([a-zA-Z%]*)$/.exec(value.trim());
  if (!m) return 0;
  const factor = UNITS[m[2]!.toLowerCase()];
  const n = Number(m[1]) * (factor ?? 0);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/**
 * A `viewBox` attribute as `[minX, minY, width, height]`, or null when it is absent or not
 * four finite numbers.
 */
export function parseViewBox(value: string | undefined): [number, number, number, number] | null {
  if (value === undefined) return null;
  const parts = value
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  if (parts.length !== 4 || !parts.every(Number.isFinite)) return null;
  return parts as [number, number, number, number];
}

export interface FitResult {
  /** Attributes to set on the root (width/height: size·¾, see RENDER_DENSITY). */
  width: string;
  height: string;
  viewBox: string;
  /** The drawing's own viewBox (declared or derived), for CodeStats. */
  sourceViewBox: [number, number, number, number] | null;
}

/**
 * The root attributes that make librsvg map the drawing exactly as CairoSVG does. A valid
 * viewBox is kept as is. Without one CairoSVG uses (0 0 width height), and when a side is
 * missing it scales that axis by 1 and centres what is left; that mapping is expressed
 * here as an equivalent square viewBox so the result matches even in those odd cases.
 */
export function fitRoot(attrs: Record<string, string>, size: number): FitResult {
  const width = rootLength(attrs.width);
  const height = rootLength(attrs.height);
  const declared = parseViewBox(attrs.viewBox);
  const px = String(size * ROOT_PX_PER_OUTPUT_PX);
  if (declared && declared[2] > 0 && declared[3] > 0) {
    return { width: px, height: px, viewBox: attrs.viewBox!, sourceViewBox: declared };
  }
  const vb: [number, number, number, number] = declared
    ? [declared[0], declared[1], declared[2] || width, declared[3] || height]
    : [0, 0, width, height];
  if (vb[2] > 0 && vb[3] > 0) {
    return { width: px, height: px, viewBox: vb.join(' '), sourceViewBox: vb };
  }
  const sx = vb[2] > 0 ? size / vb[2] : 1;
  const sy = vb[3] > 0 ? size / vb[3] : 1;
  const s = parseAspectRatio(attrs.preserveAspectRatio).slice ? Math.max(sx, sy) : Math.min(sx, sy);
  const side = size / s;
  const tx = (side - vb[2]) / 2;
  const ty = (side - vb[3]) / 2;
  const synthetic = [vb[0] - tx, vb[1] - ty, side, side].join(' ');
  return { width: px, height: px, viewBox: synthetic, sourceViewBox: null };
}

/** A root's preserveAspectRatio: the align as fractions of the spare room (0 min, ½ mid, 1 max). */
export interface AspectRatio {
  /** `none`: the viewBox is stretched to the viewport, no room spare, nothing cut. */
  none: boolean;
  ax: number;
  ay: number;
  slice: boolean;
}

const ALIGN: Record<string, number> = { min: 0, mid: 0.5, max: 1 };

/**
 * `[defer] <align> [meet|slice]`; anything unreadable is the default, xMidYMid meet, as
 * librsvg and CairoSVG take it.
 */
export function parseAspectRatio(value: string | undefined): AspectRatio {
  const fallback = { none: false, ax: 0.5, ay: 0.5, slice: false };
  const words = (value ?? '')
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '' && w !== 'defer');
  const align = words[0];
  const slice = words[1] === 'slice';
  if (align === undefined || (words[1] !== undefined && !slice && words[1] !== 'meet'))
    return fallback;
  if (align === 'none') return { none: true, ax: 0, ay: 0, slice };
  const m = /^x(Min|Mid|Max)Y(Min|Mid|Max)$/.exec(align);
  if (!m) return fallback;
  return { none: false, ax: ALIGN[m[1]!.toLowerCase()]!, ay: ALIGN[m[2]!.toLowerCase()]!, slice };
}

/**
 * The box of user space the canvas shows (issue 40): the drawing's viewBox (declared, or
 * 0 0 width height) as fitRoot maps it onto the canvas, grown to the canvas's aspect per
 * preserveAspectRatio — `meet` adds the spare room beside the viewBox (both sides for
 * Mid, one side for Min/Max), where what is drawn beyond the viewBox is painted; `slice`
 * keeps the part of the viewBox the canvas holds; `none` is the viewBox itself. Null when
 * the mapping depends on the output size (no viewBox and a side missing). Exact for a
 * viewBox of the canvas's aspect: that box comes back unchanged.
 */
export function paintedBox(attrs: Record<string, string>): [number, number, number, number] | null {
  const fitted = fitRoot(attrs, 512);
  const vb = fitted.sourceViewBox;
  if (!vb) return null;
  const [x, y, w, h] = vb;
  const a = parseAspectRatio(attrs.preserveAspectRatio);
  if (a.none) return [x, y, w, h];
  // The canvas's aspect as fitRoot sizes it (square today).
  const aspect = rootLength(fitted.width) / rootLength(fitted.height);
  const pick = a.slice ? Math.min : Math.max;
  const pw = pick(w, h * aspect);
  const ph = pick(h, w / aspect);
  return [x - a.ax * (pw - w), y - a.ay * (ph - h), pw, ph];
}
