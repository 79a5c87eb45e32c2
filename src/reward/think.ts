// R_think, Reason-SVG's structure proxy for Drawing-with-Thought (docs/reason-svg.md):
// "graded" (default) = the longest run of DwT stages found in canonical order ÷ 6 (a valid
// DwT scores 1), counted only when the reasoning comes before the SVG; "binary" = 1 for a
// structurally valid DwT, else 0.
import { DWT_STAGES, type DwtReport } from '../artifact/types.ts';

/** How the hybrid reward's think term counts DwT: `graded` (stages in order / 6) or `binary`. */
export type ThinkMode = 'graded' | 'binary';

const STAGE_COUNT = 6;

/** Length of the longest strictly increasing run (subsequence) of canonical stage indices. */
function orderedStageCount(stages: readonly string[]): number {
  const canonical: readonly string[] = DWT_STAGES;
  const idx = stages.map((s) => canonical.indexOf(s)).filter((i) => i >= 0);
  const best: number[] = [];
  for (const i of idx) {
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (best[mid]! < i) lo = mid + 1;
      else hi = mid;
    }
    best[lo] = i;
  }
  return best.length;
}

/**
 * The hybrid reward's think term in [0,1] from the DwT report, with its reason: 1 for a valid
 * DwT; else the share of stages in order (`graded`) or 0 (`binary`); 0 when planning comes
 * only after the SVG.
 */
export function thinkTerm(
  dwt: DwtReport,
  hasSvg: boolean,
  mode: ThinkMode = 'graded',
): { score: number; rationale: string } {
  if (dwt.valid)
    return {
      score: 1,
      rationale: 'structurally valid DwT: all six stages, in order, before the SVG',
    };
  if (mode === 'binary')
    return {
      score: 0,
      rationale: `not a valid DwT (${dwt.stages.length}/6 stages found${dwt.ordered ? '' : ', out of order'})`,
    };
  if (hasSvg && !dwt.beforeSvg && dwt.stages.length > 0)
    return {
      score: 0,
      rationale: 'DwT stages appear only after the SVG (planning must come first)',
    };
  const n = orderedStageCount(dwt.stages);
  return { score: n / STAGE_COUNT, rationale: `${n}/6 DwT stages in canonical order` };
}
