// The overdraw the clutter check reads, and when it counts. The number itself is measured
// in the render worker from the sanitiser's one parse of the SVG (src/render/overdraw.ts)
// and arrives in the render's CodeStats: the parent never parses the SVG again. It counts
// for an SVG answer (another domain's picture has no SVG geometry) with at least
// OVERDRAW_MIN_ELEMENTS elements after <use>: fewer cannot pile up (the worker does not
// measure those; the floor is checked here too for CodeStats made elsewhere).
import type { Artifact } from '../artifact/types.ts';
import { OVERDRAW_MIN_ELEMENTS } from '../render/overdraw.ts';
import type { CodeOverdraw, CodeStats } from '../render/types.ts';

/** The geometry's overdraw when the clutter check should weigh it, else null. */
export function overdrawFor(artifact: Artifact, code: CodeStats): CodeOverdraw | null {
  if (!artifact.svg || code.expandedElements < OVERDRAW_MIN_ELEMENTS) return null;
  return code.overdraw ?? null;
}
