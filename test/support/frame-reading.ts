// The `clipped` frame reading of a small drawing, as the render worker computes it on the
// sanitiser's parse: what the frame-rule tests beside src/render/frame-*.ts read. `CUT_MIN` is
// the check's own threshold (a cut run this long flags), so a test asserts the flag, not a copy
// of the number.
import { DEFAULT_CHECK_OPTIONS } from '../../src/checks/thresholds.ts';
import { sanitizeSvg } from '../../src/render/sanitize.ts';
import type { CodeFrame } from '../../src/render/types.ts';

export const CUT_MIN = DEFAULT_CHECK_OPTIONS.clippedMinBorderInk;

/** An SVG document around `body`, on `viewBox` (512² unless given). */
export const svgOf = (body: string, viewBox = '0 0 512 512') =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${viewBox}">${body}</svg>`;

/** The frame reading of `body` drawn on `viewBox`. */
export function frameOf(body: string, viewBox?: string): CodeFrame {
  const stats = sanitizeSvg(svgOf(body, viewBox)).code?.frame;
  if (!stats) throw new Error('the sanitiser gave no frame reading');
  return stats;
}
