// Deterministic criteria: every check is a small function of one shape, so rewards can
// weigh them and reports can show them side by side.
import type { Artifact } from '../artifact/types.ts';
import type { RenderResult } from '../render/types.ts';

/** One check's outcome: its number, and `flag: true` where the number crosses its threshold. */
export interface CheckResult {
  name: string;
  /** The number behind the check (a score in [0,1] or a measurement, see `unit`). */
  value: number;
  /** Set where a threshold makes sense: true means "this is a problem". */
  flag?: boolean;
  unit?: 'score' | 'ratio' | 'count' | 'tokens' | 'mse' | 'px';
  detail?: Record<string, unknown>;
}

/** Thresholds behind the flags; every one can be overridden per call. */
export interface CheckOptions {
  /** `blank` when the picture's MSE against the background is below this (channels in [0,1]). */
  blankMse: number;
  /**
   * `clipped` when at least this share of the 1-px border ring is ink cut by the frame (not
   * part of a band or a region that runs across the canvas).
   */
  clippedMinBorderInk: number;
  /**
   * Only for renderers that do not measure the cut (no `pixels.picture`): the old rule, ink
   * on the ring below this share (a full ring is a full-bleed background).
   */
  clippedMaxBorderInk: number;
  /** `text_in_image` when at least this many prompt content words are written as text… */
  textMinWords: number;
  /** …or when the words written cover at least this share of the prompt's content words. */
  textMinShare: number;
  /** `clutter` when any of these is reached: stroked unfilled shapes… */
  clutterStrokedShapes: number;
  /** …elements… */
  clutterElements: number;
  /** …path segments… */
  clutterPathSegments: number;
  /** …or overdraw: painted area over canvas area, from the geometry (layers per pixel). */
  clutterOverdraw: number;
  /** Stroke and element allowances are multiplied by this when the prompt asks for a pattern. */
  clutterRepeatFactor: number;
  /** The overdraw allowance is multiplied by this when the prompt asks for light or layers. */
  clutterLightFactor: number;
  /**
   * Where the geometry is measured (src/render/waste.ts): elements that put no ink in the
   * picture (hidden, zero-area, off the canvas, exact copies, covered by a later opaque shape)…
   */
  clutterWasteElements: number;
  /** …vertices where a line turns back (noise); this replaces the segment allowance… */
  clutterJaggedTurns: number;
  /** …together with this bound on all path segments, however smooth. */
  clutterSmoothSegments: number;
  /** `ink_coverage` when less than this share of the canvas differs from its dominant colour. */
  inkMinCoverage: number;
  /** `output_tokens` when the completion has at least this many tokens. */
  maxOutputTokens: number;
}

/** What every check reads: one rollout's artifact, its render (null: nothing to render). */
export interface CheckInput {
  artifact: Artifact;
  render: RenderResult | null;
  prompt?: string;
  /**
   * The rubric's own item titles and keys, when the caller knows the rubric: judge_text
   * flags them written into the answer (a caption of the criteria is text for the judge).
   */
  rubricTerms?: readonly string[];
  options: CheckOptions;
}

/** The one shape of a deterministic check. */
export type Check = (input: CheckInput) => CheckResult;
