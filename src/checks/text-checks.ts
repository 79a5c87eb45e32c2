// Checks on the completion text itself: its length in Qwen tokens, and how much of a
// Drawing-with-Thought rationale it carries (Reason-SVG's R_think is a structure proxy of
// exactly this kind).
import { DWT_STAGES } from '../artifact/types.ts';
import type { Check } from './types.ts';

/** Completion tokens; flagged at or past `maxOutputTokens` (cut off, or padding). */
export const outputTokens: Check = ({ artifact, options }) => ({
  name: 'output_tokens',
  value: artifact.tokens.completion,
  flag: artifact.tokens.completion >= options.maxOutputTokens,
  unit: 'tokens',
  detail: {
    svg: artifact.tokens.svg,
    reasoning: artifact.tokens.reasoning,
    limit: options.maxOutputTokens,
    ...(artifact.tokens.estimated ? { estimated: true } : {}),
  },
});

/**
 * Share of the six DwT stages found. No flag: most models write no DwT and that is not a
 * defect; `detail.valid` is Reason-SVG's "structurally valid DwT" (all six, in order,
 * before the SVG).
 */
export const dwt: Check = ({ artifact }) => ({
  name: 'dwt',
  value: artifact.dwt.stages.length / DWT_STAGES.length,
  unit: 'score',
  detail: { ...artifact.dwt },
});
