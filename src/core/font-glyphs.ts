// Which characters of a text the pinned fonts draw, and with which files: resvg loads only
// the chain files a drawing's text needs (loading a 4 MB CJK font for every label would cost
// more than drawing it), and missing_glyphs counts the characters no pinned font has. Both
// read the same cmap coverage, so "missing" means "drawn as a box by every renderer".
import { fontCoverage } from './font-coverage.ts';
import { CHAIN_FILES, FONT_FILES } from './fonts.ts';

// Characters that draw nothing of their own, so no font needs a glyph for them: controls,
// spaces, joiners and direction marks, variation selectors, tags.
const SPACE_OR_CONTROL = /[\p{Cc}\p{Zs}\p{Zl}\p{Zp}]/u;
const INVISIBLE_RANGES: [number, number][] = [
  [0xad, 0xad],
  [0x34f, 0x34f],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xe0000, 0xe007f],
  [0xe0100, 0xe01ef],
];
const invisible = (ch: string, cp: number) =>
  SPACE_OR_CONTROL.test(ch) || INVISIBLE_RANGES.some(([a, b]) => cp >= a && cp <= b);

/** The distinct code points above ASCII in `text` (the only ones DejaVu might lack). */
export function nonAsciiCodePoints(text: string): Set<number> {
  const out = new Set<number>();
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp > 0x7e) out.add(cp);
  }
  return out;
}

/** The files resvg loads for `text`: DejaVu, then the chain files that cover any of it. */
export function fontFilesFor(text: string): string[] {
  const cps = nonAsciiCodePoints(text);
  if (cps.size === 0) return FONT_FILES;
  const needed = CHAIN_FILES.filter((f) => {
    const cov = fontCoverage(f);
    for (const cp of cps) if (cov.has(cp)) return true;
    return false;
  });
  return [...FONT_FILES, ...needed];
}

function drawable(cp: number): boolean {
  for (const f of FONT_FILES) if (fontCoverage(f).has(cp)) return true;
  for (const f of CHAIN_FILES) if (fontCoverage(f).has(cp)) return true;
  return false;
}

/** Every character of `text` (in order, repeats kept) that no pinned font has a glyph for. */
export function missingGlyphs(text: string): string[] {
  const out: string[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x7f || invisible(ch, cp)) continue; // DejaVu has every printable ASCII glyph
    if (!drawable(cp)) out.push(ch);
  }
  return out;
}

/** True when at least one pinned font file is on this machine (else nothing can be judged). */
export function pinnedFontsPresent(): boolean {
  return FONT_FILES.length > 0;
}
