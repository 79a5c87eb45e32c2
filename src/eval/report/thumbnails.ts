// Pictures for report.html: each rendered PNG shrunk to a thumbnail and inlined as a
// data: URI, so the report is one file that opens offline (and stays a sane size for a
// thousand rollouts: a 256-px PNG of an icon is a few kB).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { EvalRecord } from '../types.ts';

export const THUMBNAIL_SIZE = 256;

export async function pngToDataUri(png: Buffer, size = THUMBNAIL_SIZE): Promise<string> {
  const small = await sharp(png)
    .resize(size, size, { fit: 'contain', background: '#ffffff' })
    .png({ compressionLevel: 9, palette: true })
    .toBuffer();
  return `data:image/png;base64,${small.toString('base64')}`;
}

/** Reads `record.image` (relative to `dir`) for every record that has one. */
export async function loadThumbnails(
  dir: string,
  records: EvalRecord[],
  size = THUMBNAIL_SIZE,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const r of records) {
    if (!r.image) continue;
    const png = await readFile(join(dir, r.image)).catch(() => null);
    // A missing file shows as a card without a picture rather than failing the report.
    if (png) out.set(r.id, await pngToDataUri(png, size));
  }
  return out;
}
