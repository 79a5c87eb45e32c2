// Default input limits for one render and the merge of a caller's overrides. The numbers
// are sized for model-written SVG (a 4k-token answer is ~16 KB) with a wide margin for
// real hand-made icons and illustrations, and low enough that one hostile file costs at
// most a fraction of a second before it is refused.
import type { RenderLimits } from './types.ts';

/**
 * The render limits: high enough for real hand-made icons and illustrations, low enough that
 * a hostile file is refused within a fraction of a second.
 */
export const DEFAULT_LIMITS: Readonly<RenderLimits> = Object.freeze({
  maxBytes: 2 * 1024 * 1024,
  maxElements: 25_000,
  maxDepth: 256,
  maxPathSegments: 150_000,
  maxUseExpansion: 50_000,
  maxPixels: 4096 * 4096,
  maxDataUriBytes: 2 * 1024 * 1024,
  maxFilteredElements: 64,
  maxFilterPasses: 128,
  maxGlyphs: 20_000,
  maxTextRun: 2_000,
});

/** Nested `data:image/svg+xml` documents are sanitised recursively up to this depth. */
export const MAX_NESTED_SVG_DEPTH = 2;

/**
 * The default limits with `partial`'s overrides applied; an override that is not a positive
 * finite number is ignored.
 */
export function resolveLimits(partial?: Partial<RenderLimits>): RenderLimits {
  const out = { ...DEFAULT_LIMITS };
  if (!partial) return out;
  for (const key of Object.keys(out) as (keyof RenderLimits)[]) {
    const v = partial[key];
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) out[key] = Math.floor(v);
  }
  return out;
}
