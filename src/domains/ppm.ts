// A picture handed on as binary PPM (P6, Netpbm): pdftoppm's native output. Writing PNG cost
// pdftoppm ~14 CPU-ms a LaTeX page (its libpng deflate) and decoding it cost this process
// another decode, only for pngResult to crop the pixels and encode them again; read as PPM,
// the pixels arrive as they are (issue 36). The same codes and the same picture as
// pngResult gives for the same page as PNG (ppm.test.ts compares them on pdftoppm's output).
import { makeError } from '../core/errors.ts';
import { colourRuns } from '../render/picture-stats.ts';
import { pngEncoder } from '../render/png-encode.ts';
import { cropOnWhite, isOneColour, MAX_DOMAIN_PIXELS } from './png.ts';
import type { DomainNotes, DomainRender } from './types.ts';

// "P6", whitespace, width, whitespace, height, whitespace, maxval, then exactly one
// whitespace byte before the samples (Netpbm's ppm format; comments are not written by
// pdftoppm, and anything else is refused rather than guessed at).
const HEADER = /^P6\s+(\d{1,9})\s+(\d{1,9})\s+(\d{1,5})\s/;

export async function ppmResult(
  ppm: Buffer,
  started: number,
  notes: DomainNotes,
  opts: { trim?: boolean } = {},
): Promise<DomainRender> {
  const ms = () => performance.now() - started;
  const fail = (code: 'no_output' | 'too_large' | 'blank', message: string): DomainRender => ({
    ok: false,
    error: makeError(code, message),
    ms: ms(),
    notes,
  });
  const m = HEADER.exec(ppm.toString('latin1', 0, 40));
  const width = Number(m?.[1]);
  const height = Number(m?.[2]);
  if (m?.[3] !== '255' || !width || !height) return fail('no_output', 'the output is not a PPM');
  if (width * height > MAX_DOMAIN_PIXELS) {
    return fail('too_large', 'unreadable picture: input image exceeds pixel limit');
  }
  const px = ppm.subarray(m[0].length);
  if (px.length !== width * height * 3) {
    return fail(
      'no_output',
      `unreadable picture: ${px.length} bytes of samples for ${width}×${height}`,
    );
  }
  if (isOneColour(px)) return fail('blank', 'the picture is a single flat colour');
  if (opts.trim) {
    const out = await cropOnWhite(px, px, { width, height, channels: 3 });
    return { ok: true, ...out, ms: ms(), notes };
  }
  const encode = await pngEncoder();
  const png = encode(colourRuns(px, width * height), width, height);
  return { ok: true, png, width, height, ms: ms(), notes };
}
