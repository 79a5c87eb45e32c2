// The pinned fallback chain after DejaVu: for every script DejaVu lacks (CJK, Indic, Thai,
// emoji, …) one Debian font, tried in this order by every renderer (fonts.ts writes it into
// the fontconfig file librsvg and Chromium read, and hands the same files in the same order
// to resvg). One family per script, so which font draws a character never depends on the
// renderer's own fallback heuristics: the pictures stay the same between renderers.
// Packages (scripts/setup-debian.sh installs them), chosen for size:
//  - fonts-noto-core (12 MB download): Noto Sans for Arabic, Hebrew, Indic scripts, Thai, …
//  - fonts-wqy-microhei (1.6 MB): WenQuanYi Micro Hei, CJK ideographs, kana and Hangul
//    (fonts-noto-cjk is 57 MB for the same scripts; Droid Sans Fallback has no Hangul)
//  - fonts-symbola (1.3 MB): Symbola, monochrome outline emoji and symbols. Not Noto Color
//    Emoji: its bitmap (CBDT) glyphs draw nothing in resvg 2.6, so the renderers would differ.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface ChainFont {
  family: string;
  /** Debian package that installs it. */
  package: string;
  /** What it is in the chain for (reported by doctor and missing_glyphs). */
  scripts: string[];
  /** Paths relative to the fonts root (/usr/share/fonts/truetype), regular before bold. */
  files: string[];
}

const noto = (script: string, scripts = [script]): ChainFont => ({
  family: `Noto Sans ${script}`,
  package: 'fonts-noto-core',
  scripts,
  files: [`noto/NotoSans${script}-Regular.ttf`, `noto/NotoSans${script}-Bold.ttf`],
});

/** The chain after DejaVu, in the order fallback tries it. */
export const FALLBACK_CHAIN: readonly ChainFont[] = Object.freeze([
  noto('Arabic'),
  noto('Hebrew'),
  noto('Devanagari'),
  noto('Bengali'),
  noto('Gurmukhi'),
  noto('Gujarati'),
  noto('Tamil'),
  noto('Telugu'),
  noto('Kannada'),
  noto('Malayalam'),
  noto('Sinhala'),
  noto('Thai'),
  noto('Lao'),
  noto('Khmer'),
  noto('Myanmar'),
  noto('Georgian'),
  noto('Armenian'),
  noto('Ethiopic'),
  {
    family: 'WenQuanYi Micro Hei',
    package: 'fonts-wqy-microhei',
    scripts: ['Han', 'Hiragana', 'Katakana', 'Hangul', 'Bopomofo'],
    files: ['wqy/wqy-microhei.ttc'],
  },
  {
    family: 'Symbola',
    package: 'fonts-symbola',
    scripts: ['Emoji', 'Symbols'],
    files: ['ancient-scripts/Symbola_hint.ttf'],
  },
]);

/** Where the chain's files live: beside the DejaVu directory (Debian's truetype root). */
export function chainRoot(fontDir: string): string {
  return dirname(fontDir);
}

/** The chain's font files present on this machine, in chain order. */
export function chainFiles(fontDir: string): string[] {
  const root = chainRoot(fontDir);
  return FALLBACK_CHAIN.flatMap((f) => f.files.map((p) => join(root, p))).filter((p) =>
    existsSync(p),
  );
}
