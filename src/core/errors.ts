// Stable error codes. Bad input from a policy is never an exception: it becomes a value
// carrying one of these codes, so trainers and reports can count failures by reason.

/** Why no SVG could be taken from a completion. */
export type ArtifactErrorCode = 'no_svg' | 'truncated';

/** Why an SVG could not be turned into a picture. */
export type RenderErrorCode =
  | 'parse_error' // not well-formed XML, invalid UTF-8, no <svg> root
  | 'too_large' // over a byte / element / depth / segment / <use> / pixel limit
  | 'timeout' // the render took longer than its wall-clock limit; the worker was killed
  | 'render_crash' // the renderer process died (signal, abort, out of memory)
  | 'render_error'; // the renderer refused the file with an error

/** Why a rollout has no model-made score. */
export type UnscoreableReason =
  | ArtifactErrorCode
  | RenderErrorCode
  | 'blank'
  | 'judge_error'
  | 'scorer_error'
  | 'no_rubric';

export interface RubricaError<C extends string = string> {
  code: C;
  message: string;
}

export function makeError<C extends string>(code: C, message: string): RubricaError<C> {
  return { code, message };
}
