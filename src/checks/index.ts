// Public surface of the checks room: deterministic criteria on code and pixels. The
// individual checks are exported with a "Check" suffix so their short names (blank,
// clutter, …) stay free in the library's flat namespace.
export { clutter as clutterCheck } from './clutter.ts';
export {
  blank as blankCheck,
  clipped as clippedCheck,
  inkCoverage as inkCoverageCheck,
  renders as rendersCheck,
} from './pixel-checks.ts';
export { type PromptWords, promptWords, requestedText } from './prompt-words.ts';
export { CHECKS, runChecks, summarizeChecks } from './run-checks.ts';
export { dwt as dwtCheck, outputTokens as outputTokensCheck } from './text-checks.ts';
export { textInImage as textInImageCheck } from './text-in-image.ts';
export { DEFAULT_CHECK_OPTIONS, resolveCheckOptions } from './thresholds.ts';
export * from './types.ts';
