// Turns the bytes a domain's renderer produced into a DomainRender: checks they are a PNG
// of sane size, reads its dimensions, and trims a uniform margin when asked (LaTeX pages,
// scores). A picture that is one flat colour is `blank`: PrismaForge's "non-empty artifact"
// rule.
//
// The PNG is decoded once (issue 36): every job of every domain comes through here, and the
// earlier version decoded it up to three times (metadata, the blank test, and for a trimmed
// picture a flatten + trim + extend pipeline re-encoded at zlib level 6), besides a libvips
// median filter over the whole page to find the trim box — on a warm LaTeX or LilyPond pool
// that was a sizeable share of a job's CPU. Now the flattened pixels serve the blank test,
// the trim box is found next to the ink (ink-box.ts) and the cropped picture is written by
// the project's PNG encoder (deflate level 1). The pixels are those the old pipeline gave;
// png.test.ts decodes both on real outputs of each domain and compares them.

import { makeError } from '../core/errors.ts';
import { colourRuns } from '../render/picture-stats.ts';
import { pngEncoder } from '../render/png-encode.ts';
import sharp from '../render/sharp.ts';
import { inkBox } from './ink-box.ts';
import { pngHeader } from './png-header.ts';
import type { DomainNotes, DomainRender } from './types.ts';

/** Largest picture a domain may hand on (pixels): bigger is `too_large`. */
export const MAX_DOMAIN_PIXELS = 4096 * 4096;
/** White margin kept around a trimmed picture (pixels). */
const MARGIN = 8;

export async function pngResult(
  png: Buffer,
  started: number,
  notes: DomainNotes,
  opts: { trim?: boolean } = {},
): Promise<DomainRender> {
  const ms = () => performance.now() - started;
  try {
    const head = pngHeader(png);
    if (!head?.width || !head.height) {
      return {
        ok: false,
        error: makeError('no_output', 'the output is not a PNG'),
        ms: ms(),
        notes,
      };
    }
    // Judged as it is seen: on white. A picture whose transparency hides everything is one
    // flat colour once flattened — `digraph {}` is a white box with soft transparent edges,
    // which the unflattened alpha channel used to let pass as a drawing (issue 35).
    const { data, info } = await sharp(png, { limitInputPixels: MAX_DOMAIN_PIXELS })
      .flatten({ background: '#ffffff' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (isOneColour(data)) {
      return {
        ok: false,
        error: makeError('blank', 'the picture is a single flat colour'),
        ms: ms(),
        notes,
      };
    }
    if (!opts.trim) {
      return { ok: true, png, width: info.width, height: info.height, ms: ms(), notes };
    }
    // sharp trimmed before it flattened, so with alpha the box also followed the alpha
    // channel, and a 16-bit picture was compared at 16 bits; pictures under 3×3 were refused.
    // No renderer that trims draws those: they keep the old pipeline, exactly.
    const plain = !head.alpha && head.bitDepth <= 8 && (info.width >= 3 || info.height >= 3);
    const out = plain
      ? await cropOnWhite(data, await boxPixels(png, head.icc, data), info)
      : await trimBySharp(png);
    return { ok: true, ...out, ms: ms(), notes };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const code = /pixel limit/i.test(message) ? 'too_large' : 'no_output';
    return { ok: false, error: makeError(code, `unreadable picture: ${message}`), ms: ms(), notes };
  }
}

/**
 * The pixels the trim box is found on. sharp found it before applying the PNG's colour
 * profile (LilyPond's Ghostscript embeds one, which moves ~0.3 % of 8-bit samples by one), so
 * with a profile the box comes from the pixels as stored — a decode without the profile,
 * about a third of one with it — and the picture itself from the profiled ones, as before.
 */
async function boxPixels(png: Buffer, icc: boolean, decoded: Buffer): Promise<Buffer> {
  if (!icc) return decoded;
  return sharp(png, { limitInputPixels: MAX_DOMAIN_PIXELS, ignoreIcc: true }).raw().toBuffer();
}

/** One flat colour: the pixels equal themselves shifted by one pixel (one memcmp). */
export function isOneColour(px: Buffer): boolean {
  return px.subarray(3).equals(px.subarray(0, px.length - 3));
}

/** The picture cut to its ink box (the whole of it when none), MARGIN of white around, as RGB PNG. */
export async function cropOnWhite(
  px: Buffer,
  boxPx: Buffer,
  { width, height, channels }: { width: number; height: number; channels: number },
) {
  const box = inkBox(boxPx, width, height, channels) ?? { left: 0, top: 0, width, height };
  const w = box.width + 2 * MARGIN;
  const h = box.height + 2 * MARGIN;
  const rgb = Buffer.alloc(w * h * 3, 0xff);
  for (let y = 0; y < box.height; y++) {
    const from = ((box.top + y) * width + box.left) * channels;
    const to = ((MARGIN + y) * w + MARGIN) * 3;
    if (channels === 3) {
      px.copy(rgb, to, from, from + box.width * 3);
    } else {
      // Grey: each sample becomes three (no renderer that trims draws grey today).
      for (let x = 0; x < box.width; x++)
        rgb.fill(px[from + x * channels]!, to + x * 3, to + x * 3 + 3);
    }
  }
  const encode = await pngEncoder();
  return { png: encode(colourRuns(rgb, w * h), w, h), width: w, height: h };
}

/** The old pipeline, kept for pictures with alpha or 16-bit samples (see pngResult). */
async function trimBySharp(png: Buffer) {
  const { data, info } = await sharp(png)
    .flatten({ background: '#ffffff' })
    .trim({ background: '#ffffff', threshold: 1 })
    .extend({ top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN, background: '#ffffff' })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height };
}
