// Turns the bytes a domain's renderer produced into a DomainRender: checks they are a PNG
// of sane size, reads its dimensions, and trims a uniform margin when asked (LaTeX pages).
// A picture that is one flat colour is `blank`: PrismaForge's "non-empty artifact" rule.

import { makeError } from '../core/errors.ts';
import sharp from '../render/sharp.ts';
import type { DomainNotes, DomainRender } from './types.ts';

/** Largest picture a domain may hand on (pixels): bigger is `too_large`. */
export const MAX_DOMAIN_PIXELS = 4096 * 4096;

/**
 * Whether the picture is one flat colour once flattened on white. (sharp's stats() reads the
 * input, not the pipeline, so the flattened pixels are compared directly: a buffer equal to
 * itself shifted by one pixel holds one colour, and memcmp does it in one pass.)
 */
async function flatOnWhite(png: Buffer): Promise<boolean> {
  const { data } = await sharp(png, { limitInputPixels: MAX_DOMAIN_PIXELS })
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return data.subarray(3).equals(data.subarray(0, data.length - 3));
}

export async function pngResult(
  png: Buffer,
  started: number,
  notes: DomainNotes,
  opts: { trim?: boolean } = {},
): Promise<DomainRender> {
  const ms = () => performance.now() - started;
  try {
    const meta = await sharp(png, { limitInputPixels: MAX_DOMAIN_PIXELS }).metadata();
    if (meta.format !== 'png' || !meta.width || !meta.height) {
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
    if (await flatOnWhite(png)) {
      return {
        ok: false,
        error: makeError('blank', 'the picture is a single flat colour'),
        ms: ms(),
        notes,
      };
    }
    if (opts.trim) {
      const { data, info } = await sharp(png)
        .flatten({ background: '#ffffff' })
        .trim({ background: '#ffffff', threshold: 1 })
        .extend({ top: 8, bottom: 8, left: 8, right: 8, background: '#ffffff' })
        .png()
        .toBuffer({ resolveWithObject: true });
      return { ok: true, png: data, width: info.width, height: info.height, ms: ms(), notes };
    }
    return { ok: true, png, width: meta.width, height: meta.height, ms: ms(), notes };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const code = /pixel limit/i.test(message) ? 'too_large' : 'no_output';
    return { ok: false, error: makeError(code, `unreadable picture: ${message}`), ms: ms(), notes };
  }
}
