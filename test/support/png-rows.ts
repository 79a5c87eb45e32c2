// The reference a PNG encoder is checked against, pixel by pixel and with no cleverness: the
// unfiltered rows that colour runs stand for, and the IDAT data of a PNG to inflate and
// compare with them. Shared by deflate-runs.test.ts and bench/png-size.ts.
import type { ColourRuns } from '../../src/render/picture-stats.ts';

/** The unfiltered RGB rows (filter byte 0 each) the runs stand for, pixel by pixel. */
export function referenceRows(runs: ColourRuns, width: number, height: number): Buffer {
  const stride = 1 + 3 * width;
  const rows = Buffer.alloc(stride * height);
  let p = 0;
  for (let i = 0; i < runs.count; i++) {
    const c = runs.colour[i]!;
    for (let k = 0; k < runs.length[i]!; k++, p++) {
      const at = Math.floor(p / width) * stride + 1 + (p % width) * 3;
      rows[at] = c >>> 16;
      rows[at + 1] = (c >>> 8) & 0xff;
      rows[at + 2] = c & 0xff;
    }
  }
  return rows;
}

/** The IDAT data of a PNG (one IDAT, as rubrica's encoder writes). */
export function idatOf(png: Buffer): Buffer {
  for (let at = 8; at < png.length; ) {
    const len = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT')
      return png.subarray(at + 8, at + 8 + len);
    at += 12 + len;
  }
  throw new Error('no IDAT');
}
