// Pictures for report.html: each rendered PNG shrunk to a small WebP thumbnail and inlined
// as a data: URI, so the report is one file that opens offline. Size is the budget that
// matters: 300 drawings must fit in a 2 MB page with their text, so thumbnails are 192 px
// (cards show them at about that size), WebP at quality 70, and a picture that stays large
// at that quality (noise textures) is encoded again at a lower one. Identical renders (a
// policy drawing the same SVG twice) share one encoding.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { readRegularFile } from '../../core/read-regular-file.ts';
import sharp from '../../render/sharp.ts';
import type { EvalRecord } from '../types.ts';

export const THUMBNAIL_SIZE = 192;
/** WebP quality for thumbnails, and the fallback for pictures over the byte budget. */
export const THUMBNAIL_QUALITY = 70;
const FALLBACK_QUALITY = 45;
/** A thumbnail over this many bytes is encoded again at the fallback quality. */
export const THUMBNAIL_BUDGET = 8 * 1024;
/** Pictures encoded at once (sharp runs each on its own libuv thread). */
const CONCURRENCY = 4;
/** Bytes of one source picture read for a thumbnail (a run's PNGs are kilobytes). */
const MAX_THUMBNAIL_SOURCE = 32 * 1024 ** 2;

async function webp(png: Buffer, size: number, quality: number): Promise<Buffer> {
  return sharp(png)
    .resize(size, size, { fit: 'contain', background: '#ffffff' })
    .flatten({ background: '#ffffff' })
    .webp({ quality, effort: 4 })
    .toBuffer();
}

/** One picture as a small WebP data: URI. */
export async function pngToDataUri(png: Buffer, size = THUMBNAIL_SIZE): Promise<string> {
  let small = await webp(png, size, THUMBNAIL_QUALITY);
  if (small.length > THUMBNAIL_BUDGET) small = await webp(png, size, FALLBACK_QUALITY);
  return `data:image/webp;base64,${small.toString('base64')}`;
}

/** Reads `record.image` (relative to `dir`) for every record that has one. */
export async function loadThumbnails(
  dir: string,
  records: EvalRecord[],
  size = THUMBNAIL_SIZE,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const byHash = new Map<string, Promise<string>>();
  const todo = records.filter((r) => r.image);
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const r = todo[next++]!;
      // The path comes from a results line: read like any line-named file (issue 35), so a
      // FIFO or device there cannot hang the report. A missing or unreadable file shows as a
      // card without a picture rather than failing the report.
      const got = await readRegularFile(join(dir, r.image!), { maxBytes: MAX_THUMBNAIL_SOURCE });
      if (!got.ok) continue;
      const png = got.bytes;
      const hash = createHash('sha1').update(png).digest('hex');
      let uri = byHash.get(hash);
      if (!uri) {
        uri = pngToDataUri(png, size);
        byHash.set(hash, uri);
      }
      out.set(r.id, await uri);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return out;
}
