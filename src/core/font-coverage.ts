// Which characters a font file has a glyph for, read from its `cmap` table (the Unicode
// subtables, formats 4 and 12: what every font of the pinned set uses). Read once per file
// and process: missing_glyphs asks which characters no font of the chain can draw, and the
// resvg renderer loads only the chain files that cover the text it draws. A file that is
// missing or does not parse covers nothing (the check then reports its characters missing,
// which is what a renderer without the font would draw).
import { readFileSync } from 'node:fs';

const cache = new Map<string, ReadonlySet<number>>();

function format4(b: Buffer, at: number, out: Set<number>): void {
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
      if (gid !== 0) out.add(c);
    }
  }
}

function format12(b: Buffer, at: number, out: Set<number>): void {
  const groups = b.readUInt32BE(at + 12);
  for (let g = 0; g < groups; g++) {
    const p = at + 16 + g * 12;
    const start = b.readUInt32BE(p);
    const end = Math.min(b.readUInt32BE(p + 4), 0x10ffff);
    const glyph = b.readUInt32BE(p + 8);
    for (let c = start; c <= end; c++) if (glyph + (c - start) !== 0) out.add(c);
  }
}

function parse(b: Buffer): Set<number> {
  const out = new Set<number>();
  // A collection (.ttc) starts with its fonts' offsets: the first font is the one fallback
  // finds first (WenQuanYi Micro Hei before its Mono face; both map the same characters).
  const base = b.toString('latin1', 0, 4) === 'ttcf' ? b.readUInt32BE(12) : 0;
  const tables = b.readUInt16BE(base + 4);
  let cmap = -1;
  for (let i = 0; i < tables; i++) {
    const rec = base + 12 + i * 16;
    if (b.toString('latin1', rec, rec + 4) === 'cmap') cmap = b.readUInt32BE(rec + 8);
  }
  if (cmap < 0) return out;
  const subtables = b.readUInt16BE(cmap + 2);
  for (let i = 0; i < subtables; i++) {
    const rec = cmap + 4 + i * 8;
    const platform = b.readUInt16BE(rec);
    const encoding = b.readUInt16BE(rec + 2);
    // Unicode subtables only: platform 0, or Windows Unicode BMP (1) and full (10).
    if (platform !== 0 && !(platform === 3 && (encoding === 1 || encoding === 10))) continue;
    const at = cmap + b.readUInt32BE(rec + 4);
    const format = b.readUInt16BE(at);
    if (format === 4) format4(b, at, out);
    else if (format === 12) format12(b, at, out);
  }
  return out;
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
