// Checks on the completion text itself: its length in Qwen tokens, and how much of a
// Drawing-with-Thought rationale it carries (Reason-SVG's R_think is a structure proxy of
// exactly this kind).
import { DWT_STAGES } from '../artifact/types.ts';
import type { Check } from './types.ts';

export { outputTokens } from './output-tokens.ts';

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
