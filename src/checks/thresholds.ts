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
  // Was 4 (RULER's piles "5 and more"); a real park seen from above measures 5.05 (sky,
  // lawns, paths, trees and their translucent shadows: test/fixtures/scenes/park.svg), every
  // junk pile of the labelled sets 9.3 and more (docs/artifact-and-checks.md, issue 40).
  clutterOverdraw: 6,
  clutterRepeatFactor: 4,
  // Asked-for lighting drawn as stacked radial layers measured 4.04 on a real answer (issue
  // 40); the lit scenes of test/checks/clutter-scenes.ts reach 7.3, junk piled on them 13
  // and more: 6 × 1.5 = 9 layers.
  clutterLightFactor: 1.5,
  // Real drawings waste few elements: the 457 openclipart drawings at most 47, a scene
  // cropped through its middle 143 (off the frame); padding needs hundreds.
  clutterWasteElements: 200,
  // A random-walk scribble turns back once in three steps (1,870+ in the labelled set's
  // noise piles); van Gogh's sunflowers' brush strokes 1,026, a 25k-segment firework 339.
  clutterJaggedTurns: 1500,
  // Smooth detail is what a drawing is made of: the firework above has 25,524 segments.
  clutterSmoothSegments: 50_000,
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
