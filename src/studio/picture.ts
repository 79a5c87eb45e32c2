// The bytes a rater receives for a picture. Every picture is decoded and written again as
// one PNG of one size on white: no metadata, no encoder fingerprint, no original dimensions,
// so neither the file nor `naturalWidth` can tell which run drew it. The blank of an
// attention check goes through the same path. Nothing is cached, so a repeat costs what a
// first showing costs and its timing tells nothing either.
import { type RegularFileRead, readRegularFile } from '../core/read-regular-file.ts';
import sharp from '../render/sharp.ts';

/** The side of every picture served to raters, in pixels. */
export const STUDIO_PICTURE_PX = 768;

const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };

/** Bytes of one picture file a study may hold (a run's PNGs are kilobytes). */
export const STUDIO_PICTURE_MAX_BYTES = 32 * 1024 ** 2;
// A decoded picture of more pixels than this is refused before it is decoded (a small PNG
// can claim a huge canvas).
const MAX_PIXELS = 64 * 1024 ** 2;

/**
 * A picture file as raters get it; `null` gives the attention check's blank. The path comes
 * from a run's results line, so it is read like any request-named file (issue 35): opened
 * non-blocking, a regular file only, bounded in bytes and time. A FIFO, a device or a file
 * that changes while read is `{ ok: false }`, never a parked thread.
 */
export async function servedPicture(
  file: string | null,
): Promise<Buffer | Extract<RegularFileRead, { ok: false }>> {
  let input: ReturnType<typeof sharp>;
  if (file === null) {
    input = sharp({ create: { width: 64, height: 64, channels: 3, background: WHITE } });
  } else {
    const got = await readRegularFile(file, { maxBytes: STUDIO_PICTURE_MAX_BYTES });
    if (!got.ok) return got;
    input = sharp(got.bytes, { limitInputPixels: MAX_PIXELS });
  }
  return input
    .flatten({ background: WHITE })
    .resize(STUDIO_PICTURE_PX, STUDIO_PICTURE_PX, { fit: 'contain', background: WHITE })
    .png({ compressionLevel: 6 })
    .toBuffer();
}
