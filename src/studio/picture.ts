// The bytes a rater receives for a picture. Every picture is decoded and written again as
// one PNG of one size on white: no metadata, no encoder fingerprint, no original dimensions,
// so neither the file nor `naturalWidth` can tell which run drew it. The blank of an
// attention check goes through the same path. Nothing is cached, so a repeat costs what a
// first showing costs and its timing tells nothing either.
import sharp from '../render/sharp.ts';

/** The side of every picture served to raters, in pixels. */
export const STUDIO_PICTURE_PX = 768;

const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };

/** A picture file as raters get it; `null` gives the attention check's blank. */
export async function servedPicture(file: string | null): Promise<Buffer> {
  const input =
    file === null
      ? sharp({ create: { width: 64, height: 64, channels: 3, background: WHITE } })
      : sharp(file);
  return input
    .flatten({ background: WHITE })
    .resize(STUDIO_PICTURE_PX, STUDIO_PICTURE_PX, { fit: 'contain', background: WHITE })
    .png({ compressionLevel: 6 })
    .toBuffer();
}
