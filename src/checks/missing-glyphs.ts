// Characters the drawing writes that no pinned font can draw (core/font-glyphs.ts: DejaVu
// and the fallback chain). Every renderer draws those as boxes ("tofu") or not at all, so a
// judge shown the picture sees empty boxes where the answer wrote text: flagged, with the
// characters and their scripts, rather than judged silently. Private-use characters (an
// icon font's codes), unassigned ones and scripts outside the chain end up here. Text drawn
// as outlines (paths) has no characters and is not seen. Reads the font files' cmaps once
// per process; otherwise pure.
import { missingGlyphs, pinnedFontsPresent } from '../core/font-glyphs.ts';
import type { Check } from './types.ts';

const SCRIPTS = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Nko',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Georgian',
  'Hangul',
  'Ethiopic',
  'Cherokee',
  'Canadian_Aboriginal',
  'Mongolian',
  'Khmer',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Han',
  'Yi',
  'Javanese',
  'Balinese',
  'Tifinagh',
  'Vai',
] as const;
const SCRIPT_RES = SCRIPTS.map((s) => [s, new RegExp(`\\p{Script=${s}}`, 'u')] as const);

/** A coarse name for where a character comes from, for the check's detail. */
export function scriptOf(ch: string): string {
  if (/\p{Co}/u.test(ch)) return 'Private use';
  if (/\p{Cn}/u.test(ch)) return 'Unassigned';
  for (const [name, re] of SCRIPT_RES) if (re.test(ch)) return name;
  if (/\p{Extended_Pictographic}/u.test(ch)) return 'Emoji';
  return 'Other';
}

const codePoint = (ch: string) =>
  `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

export const missingGlyphsCheck: Check = ({ render }) => {
  if (!render?.code) {
    return { name: 'missing_glyphs', value: 0, unit: 'count', detail: { reason: 'no code stats' } };
  }
  if (!pinnedFontsPresent()) {
    // Without DejaVu every character is "missing": that is the machine, not the drawing.
    return { name: 'missing_glyphs', value: 0, unit: 'count', detail: { reason: 'no fonts' } };
  }
  const missing = render.code.texts.flatMap((t) => missingGlyphs(t));
  const scripts: Record<string, number> = {};
  for (const ch of missing) {
    const s = scriptOf(ch);
    scripts[s] = (scripts[s] ?? 0) + 1;
  }
  const distinct = [...new Set(missing)];
  return {
    name: 'missing_glyphs',
    value: missing.length,
    flag: missing.length > 0,
    unit: 'count',
    detail: {
      chars: distinct
        .slice(0, 20)
        .map((ch) => ({ char: ch, code: codePoint(ch), script: scriptOf(ch) })),
      distinct: distinct.length,
      scripts,
    },
  };
};
