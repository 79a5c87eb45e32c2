// A domain's render (PNG + notes) as the RenderResult the SVG path produces, so checks,
// rewards and `rubrica render --domain` read one shape: the pixels are measured on white
// and the SVG-only code measures are empty.
import { makeError } from '../core/errors.ts';
import { flattenInPlace } from '../render/pixel-stats.ts';
import sharp from '../render/sharp.ts';
import type { CodeStats, RenderResult } from '../render/types.ts';
import type { DomainRender } from './types.ts';

/** Code facts for a non-SVG picture: the SVG-only measures are empty (no text, no clutter). */
function codeStats(code: string): CodeStats {
  return {
    bytes: Buffer.byteLength(code),
    elements: 0,
    maxDepth: 0,
    pathSegments: 0,
    expandedElements: 0,
    texts: [],
    strokedShapes: 0,
    removed: [],
    viewBox: null,
  };
}

/** A domain's render as the RenderResult checks and rewards read, pixels measured on white. */
export async function toRenderResult(r: DomainRender, code: string): Promise<RenderResult> {
  if (!r.ok) return { ok: false, error: r.error, ms: r.ms };
  try {
    const { data, info } = await sharp(r.png)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const stats = flattenInPlace(data, info.width, info.height, [255, 255, 255]);
    return {
      ok: true,
      png: r.png,
      width: r.width,
      height: r.height,
      ms: r.ms,
      code: codeStats(code),
      pixels: stats,
    };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, error: makeError('no_output', `unreadable picture: ${message}`), ms: r.ms };
  }
}
