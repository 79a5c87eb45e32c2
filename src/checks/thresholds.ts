// Default thresholds of the deterministic checks, and the merge of a caller's overrides.
// Where the papers give a number it is used; the rest were set on measurements described
// in docs/artifact-and-checks.md (Fluent Emoji corpus: ≤ 47 elements, ≤ 846 path
// segments, ≤ 8 stroked shapes per icon).
import type { CheckOptions } from './types.ts';

/**
 * The check thresholds, each set from a paper's figure or a labelled set (the reasons are
 * beside each value).
 */
export const DEFAULT_CHECK_OPTIONS: Readonly<CheckOptions> = Object.freeze({
  // RULER's pipeline reportedly treats MSE < 1e-4 against white as a blank render.
  blankMse: 1e-4,
  // ≈ 25 px of one side's 512: a shape sliced by the frame, not an antialiased tip.
  clippedMinBorderInk: 0.012,
  clippedMaxBorderInk: 0.9,
  textMinWords: 1,
  textMinShare: 0.5,
  clutterStrokedShapes: 100,
  clutterElements: 500,
  clutterPathSegments: 5000,
  clutterOverdraw: 4,
  clutterRepeatFactor: 4,
  // Asked-for lighting drawn as stacked radial layers measured 4.04 on a real answer (issue
  // 40); the lit scenes of test/checks/clutter-scenes.ts reach 7.3, junk piles pass 8.
  clutterLightFactor: 2,
  // Set on the labelled set (test/checks): the sparsest clean drawing inks 2.2% of the
  // canvas against its own dominant colour; the planted specks and ghosts stay under 0.3%.
  inkMinCoverage: 0.01,
  // RULER's RL runs cap responses at 4,096 tokens: a completion reaching it was cut off or
  // is padding its drawing (the CLIP/aesthetic hack grew outputs from 0.3k to 6.3k tokens).
  maxOutputTokens: 4096,
});

/**
 * The defaults with `partial`'s overrides applied; an override that is not a finite number
 * ≥ 0 is ignored rather than allowed to disable a check by accident.
 */
export function resolveCheckOptions(partial?: Partial<CheckOptions>): CheckOptions {
  const out: CheckOptions = { ...DEFAULT_CHECK_OPTIONS };
  if (!partial) return out;
  for (const key of Object.keys(out) as (keyof CheckOptions)[]) {
    const v = partial[key];
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) out[key] = v;
  }
  return out;
}
