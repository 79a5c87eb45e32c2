// The two tables every reading of a pinned font file starts from: where each table lies, and
// which glyph the `cmap` gives each character (its Unicode subtables, formats 4 and 12 — what
// every font of the pinned set uses). font-coverage.ts asks which characters a file can draw,
// font-metrics.ts how far each one advances; both read the file's own bytes, once per file.

/**
 * The offset of each table of the font (the first font of a collection: the one fallback
 * finds first — WenQuanYi Micro Hei before its Mono face; both map the same characters).
 */
export function tableOffsets(b: Buffer): Map<string, number> {
  const base = b.toString('latin1', 0, 4) === 'ttcf' ? b.readUInt32BE(12) : 0;
  const tables = new Map<string, number>();
  const count = b.readUInt16BE(base + 4);
  for (let i = 0; i < count; i++) {
    const rec = base + 12 + i * 16;
    tables.set(b.toString('latin1', rec, rec + 4), b.readUInt32BE(rec + 8));
  }
  return tables;
}

function format4(b: Buffer, at: number, out: Map<number, number>): void {
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

function format12(b: Buffer, at: number, out: Map<number, number>): void {
  const groups = b.readUInt32BE(at + 12);
  for (let g = 0; g < groups; g++) {
    const p = at + 16 + g * 12;
    const start = b.readUInt32BE(p);
    const end = Math.min(b.readUInt32BE(p + 4), 0x10ffff);
    const glyph = b.readUInt32BE(p + 8);
    for (let c = start; c <= end; c++) if (glyph + (c - start) !== 0) out.set(c, glyph + c - start);
  }
}

/** Code point → glyph id, from the font's Unicode `cmap` subtables (empty without a cmap). */
export function cmapGlyphs(b: Buffer, tables: Map<string, number>): Map<number, number> {
  const glyphs = new Map<number, number>();
  const cmap = tables.get('cmap');
  if (cmap === undefined) return glyphs;
  const subtables = b.readUInt16BE(cmap + 2);
  for (let i = 0; i < subtables; i++) {
    const rec = cmap + 4 + i * 8;
    const platform = b.readUInt16BE(rec);
    const encoding = b.readUInt16BE(rec + 2);
    // Unicode subtables only: platform 0, or Windows Unicode BMP (1) and full (10).
    if (platform !== 0 && !(platform === 3 && (encoding === 1 || encoding === 10))) continue;
    const at = cmap + b.readUInt32BE(rec + 4);
    const format = b.readUInt16BE(at);
    if (format === 4) format4(b, at, glyphs);
    else if (format === 12) format12(b, at, glyphs);
  }
  return glyphs;
}
