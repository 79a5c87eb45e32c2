// How far each character advances the pen in a pinned font file, in em: read from the file's
// own tables (cmap maps a character to its glyph, hmtx gives the glyph's advance in font
// units, head says how many units make an em). The `clipped` check uses it to know how wide
// a line of text is drawn — a title in DejaVu Sans Bold capitals is half as wide again as
// the average character the estimate used before (issue 40: titles running off the frame
// were missed). Read once per file and process, only for the faces a drawing's text uses.
// A file that is missing or does not parse knows no character (the caller then estimates).
import { readFileSync } from 'node:fs';
import { cmapGlyphs, tableOffsets } from './font-tables.ts';

export interface FontMetrics {
  /** Advance of `cp` in em, or undefined when the font has no glyph for it. */
  advance(cp: number): number | undefined;
}

const NONE: FontMetrics = { advance: () => undefined };
const cache = new Map<string, FontMetrics>();

function parse(b: Buffer): FontMetrics {
  const tables = tableOffsets(b);
  const [cmap, hmtx, hhea, head] = ['cmap', 'hmtx', 'hhea', 'head'].map((t) => tables.get(t));
  if (cmap === undefined || hmtx === undefined || hhea === undefined || head === undefined)
    return NONE;
  const unitsPerEm = b.readUInt16BE(head + 18);
  const metrics = b.readUInt16BE(hhea + 34);
  if (unitsPerEm === 0 || metrics === 0) return NONE;
  const glyphs = cmapGlyphs(b, tables);
  // Glyphs past the last long metric share its advance (the hmtx rule for monospaced tails).
  return {
    advance(cp) {
      const gid = glyphs.get(cp);
      if (gid === undefined) return undefined;
      const at = hmtx + 4 * Math.min(gid, metrics - 1);
      return at + 2 <= b.length ? b.readUInt16BE(at) / unitsPerEm : undefined;
    },
  };
}

/** The advances of one font file (cached; knows nothing when the file cannot be read). */
export function fontMetrics(file: string): FontMetrics {
  let m = cache.get(file);
  if (!m) {
    try {
      m = parse(readFileSync(file));
    } catch {
      m = NONE;
    }
    cache.set(file, m);
  }
  return m;
}
