// Which characters a font file has a glyph for, read from its `cmap` table (font-tables.ts).
// Read once per file and process: missing_glyphs asks which characters no font of the chain can draw, and the
// resvg renderer loads only the chain files that cover the text it draws. A file that is
// missing or does not parse covers nothing (the check then reports its characters missing,
// which is what a renderer without the font would draw).
import { readFileSync } from 'node:fs';
import { cmapGlyphs, tableOffsets } from './font-tables.ts';

const cache = new Map<string, ReadonlySet<number>>();

function parse(b: Buffer): Set<number> {
  return new Set(cmapGlyphs(b, tableOffsets(b)).keys());
}

/** The code points `file` has a glyph for (empty when it cannot be read). */
export function fontCoverage(file: string): ReadonlySet<number> {
  let set = cache.get(file);
  if (!set) {
    try {
      set = parse(readFileSync(file));
    } catch {
      set = new Set();
    }
    cache.set(file, set);
  }
  return set;
}
