// How far each character advances the pen in a pinned font file, in em: read from the file's
// own tables (cmap maps a character to its glyph, hmtx gives the glyph's advance in font
// units, head says how many units make an em). The `clipped` check uses it to know how wide
// a line of text is drawn — a title in DejaVu Sans Bold capitals is half as wide again as
// the average character the estimate used before (issue 40: titles running off the frame
// were missed). Read once per file and process, only for the faces a drawing's text uses.
// A file that is missing or does not parse knows no character (the caller then estimates).
import { readFileSync } from 'node:fs';

export interface FontMetrics {
  /** Advance of `cp` in em, or undefined when the font has no glyph for it. */
  advance(cp: number): number | undefined;
}

const NONE: FontMetrics = { advance: () => undefined };
const cache = new Map<string, FontMetrics>();

function glyphsFormat4(b: Buffer, at: number, out: Map<number, number>): void {
  const segX2 = b.readUInt16BE(at + 6);
  const ends = at + 14;
  const starts = ends + segX2 + 2;
  const deltas = starts + segX2;
  const ranges = deltas + segX2;
  for (let i = 0; i < segX2; i += 2) {
    const end = b.readUInt16BE(ends + i);
    const start = b.readUInt16BE(starts + i);
    const delta = b.readUInt16BE(deltas + i);
    const rangeOffset = b.readUInt16BE(ranges + i);
    for (let c = start; c <= end && c !== 0xffff; c++) {
      let gid: number;
      if (rangeOffset === 0) gid = (c + delta) & 0xffff;
      else {
        const p = ranges + i + rangeOffset + 2 * (c - start);
        gid = p + 1 < b.length ? b.readUInt16BE(p) : 0;
        if (gid !== 0) gid = (gid + delta) & 0xffff;
      }
      if (gid !== 0 && !out.has(c)) out.set(c, gid);
    }
  }
}

function glyphsFormat12(b: Buffer, at: number, out: Map<number, number>): void {
  const groups = b.readUInt32BE(at + 12);
  for (let g = 0; g < groups; g++) {
    const p = at + 16 + g * 12;
    const start = b.readUInt32BE(p);
    const end = Math.min(b.readUInt32BE(p + 4), 0x10ffff);
    const glyph = b.readUInt32BE(p + 8);
    for (let c = start; c <= end; c++) if (glyph + (c - start) !== 0) out.set(c, glyph + c - start);
  }
}

function parse(b: Buffer): FontMetrics {
  // A collection (.ttc): the first font is the one fallback finds (as font-coverage.ts).
  const base = b.toString('latin1', 0, 4) === 'ttcf' ? b.readUInt32BE(12) : 0;
  const tables = new Map<string, number>();
  const count = b.readUInt16BE(base + 4);
  for (let i = 0; i < count; i++) {
    const rec = base + 12 + i * 16;
    tables.set(b.toString('latin1', rec, rec + 4), b.readUInt32BE(rec + 8));
  }
  const [cmap, hmtx, hhea, head] = ['cmap', 'hmtx', 'hhea', 'head'].map((t) => tables.get(t));
  if (cmap === undefined || hmtx === undefined || hhea === undefined || head === undefined)
    return NONE;
  const unitsPerEm = b.readUInt16BE(head + 18);
  const metrics = b.readUInt16BE(hhea + 34);
  if (unitsPerEm === 0 || metrics === 0) return NONE;
  const glyphs = new Map<number, number>();
  const subtables = b.readUInt16BE(cmap + 2);
  for (let i = 0; i < subtables; i++) {
    const rec = cmap + 4 + i * 8;
    const platform = b.readUInt16BE(rec);
    const encoding = b.readUInt16BE(rec + 2);
    if (platform !== 0 && !(platform === 3 && (encoding === 1 || encoding === 10))) continue;
    const at = cmap + b.readUInt32BE(rec + 4);
    const format = b.readUInt16BE(at);
    if (format === 4) glyphsFormat4(b, at, glyphs);
    else if (format === 12) glyphsFormat12(b, at, glyphs);
  }
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
