// How wide a run of text is drawn, from the pinned fonts' own advances (font-metrics.ts): the
// renderers resolve every family to DejaVu (fonts.ts: serif → DejaVu Serif, monospace →
// DejaVu Sans Mono, anything else — Arial, Impact, Helvetica — → DejaVu Sans), bold weights
// to its Bold face and italic to its Oblique/Italic face, and a character DejaVu lacks to
// the first file of the fallback chain that has it. A character no pinned font has is
// estimated (1 em for wide East Asian forms, 0.6 em otherwise: a box of about that size).
// Kerning is not applied: it narrows a few pairs by a few hundredths of an em, inside the
// slack the frame reading allows (text-off-frame.ts).
import { join } from 'node:path';
import { fontMetrics } from '../core/font-metrics.ts';
import { CHAIN_FILES, FONT_DIR } from '../core/fonts.ts';
import type { TextProps } from './text-style.ts';

/** The font of one run: face file, size and spacing in user units. */
export interface TextFont {
  file: string;
  size: number;
  letterSpacing: number;
  wordSpacing: number;
}

const SIZE_KEYWORDS: Record<string, number> = {
  'xx-small': 9,
  'x-small': 10,
  small: 13,
  medium: 16,
  large: 18,
  'x-large': 24,
  'xx-large': 32,
};

/** A font-size value in user units (px, pt, em and % of the parent's size, keywords). */
export function fontSize(value: string | undefined, parent: number): number {
  if (value === undefined) return parent;
  const v = value.trim().toLowerCase();
  if (v in SIZE_KEYWORDS) return SIZE_KEYWORDS[v]!;
  if (v === 'larger') return parent * 1.2;
  if (v === 'smaller') return parent / 1.2;
  const m = /^([\d.]+)\s*(px|pt|em|rem|%)?$/.exec(v);
  if (!m) return parent;
  const n = Number(m[1]);
  if (!Number.isFinite(n) || n < 0) return parent;
  const unit = m[2] ?? 'px';
  const size =
    unit === 'pt'
      ? (n * 4) / 3
      : unit === 'em'
        ? n * parent
        : unit === 'rem'
          ? n * 16
          : unit === '%'
            ? (n * parent) / 100
            : n;
  return Math.min(size, 1e6);
}

/** letter-spacing / word-spacing in user units (`normal` is 0; em of this font's size). */
export function spacing(value: string | undefined, size: number, parent: number): number {
  if (value === undefined) return parent;
  const m = /^(-?[\d.]+)\s*(px|em|pt)?$/.exec(value.trim().toLowerCase());
  if (!m) return value.trim() === 'normal' ? 0 : parent;
  const n = Number(m[1]);
  if (!Number.isFinite(n)) return parent;
  return m[2] === 'em' ? n * size : m[2] === 'pt' ? (n * 4) / 3 : n;
}

/** The DejaVu face file the renderer draws this family list, weight and style with. */
export function faceFile(family = '', weight = '', style = ''): string {
  let stem = 'DejaVuSans';
  for (const raw of family.split(',')) {
    const f = raw
      .trim()
      .replace(/^['"]|['"]$/g, '')
      .toLowerCase();
    if (f === 'dejavu serif' || f === 'serif') stem = 'DejaVuSerif';
    else if (f === 'dejavu sans mono' || f === 'monospace') stem = 'DejaVuSansMono';
    else if (!['dejavu sans', 'sans-serif', 'cursive', 'fantasy', 'system-ui'].includes(f))
      continue; // not installed: fontconfig tries the next family
    break;
  }
  const w = weight.trim().toLowerCase();
  const bold = w === 'bold' || w === 'bolder' || (/^\d+$/.test(w) && Number(w) >= 600);
  const slant = /italic|oblique/i.test(style);
  const italic = stem === 'DejaVuSerif' ? 'Italic' : 'Oblique';
  const suffix = bold ? (slant ? `-Bold${italic}` : '-Bold') : slant ? `-${italic}` : '';
  return join(FONT_DIR, `${stem}${suffix}.ttf`);
}

/** The font of an element from its cascaded props and its parent's font. */
export function resolveFont(props: TextProps, parent: TextFont, inherited: TextProps): TextFont {
  const size = fontSize(props['font-size'], parent.size);
  return {
    file: faceFile(inherited['font-family'], inherited['font-weight'], inherited['font-style']),
    size,
    letterSpacing: spacing(props['letter-spacing'], size, parent.letterSpacing),
    wordSpacing: spacing(props['word-spacing'], size, parent.wordSpacing),
  };
}

// Wide forms: CJK ideographs, kana, Hangul, full-width forms (drawn about 1 em wide).
const WIDE =
  /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u;

function advance(file: string, ch: string, cp: number): number {
  const own = fontMetrics(file).advance(cp);
  if (own !== undefined) return own;
  for (const f of CHAIN_FILES) {
    const a = fontMetrics(f).advance(cp);
    if (a !== undefined) return a;
  }
  return WIDE.test(ch) ? 1 : 0.6;
}

/** The advance of `text` in `font`, letter- and word-spacing included, in user units. */
export function runWidth(text: string, font: TextFont): number {
  let em = 0;
  let chars = 0;
  let spaces = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    chars++;
    if (cp === 0x20) spaces++;
    em += advance(font.file, ch, cp);
  }
  return em * font.size + chars * font.letterSpacing + spaces * font.wordSpacing;
}
