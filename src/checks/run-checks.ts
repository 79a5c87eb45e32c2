// Runs every deterministic check on one rollout and folds the results into the
// ChecksSummary that score records carry. The list is fixed and ordered, so reports line
// the checks up the same way every time.
import type { Artifact } from '../artifact/types.ts';
import type { ChecksSummary } from '../core/record.ts';
import type { RenderResult } from '../render/types.ts';
import { clutter } from './clutter.ts';
import { judgeText } from './judge-text.ts';
import { missingGlyphsCheck } from './missing-glyphs.ts';
import { blank, clipped, inkCoverage, renders } from './pixel-checks.ts';
import { dwt, outputTokens } from './text-checks.ts';
import { textInImage } from './text-in-image.ts';
import { resolveCheckOptions } from './thresholds.ts';
import type { Check, CheckOptions, CheckResult } from './types.ts';

export const CHECKS: readonly Check[] = Object.freeze([
  renders,
  blank,
  inkCoverage,
  clipped,
  textInImage,
  missingGlyphsCheck,
  clutter,
  outputTokens,
  dwt,
  judgeText,
]);

/**
 * Runs every deterministic check on one artifact and its render (null when nothing was
 * rendered): renders, blank, ink coverage, clipped, text in image, missing glyphs, clutter,
 * output tokens, DwT. `prompt` tells the text-in-image check which words were asked for; `options` override
 * the thresholds (DEFAULT_CHECK_OPTIONS). Pure: no I/O, never throws.
 * @example
 * ```ts
 * const checks = runChecks(inspection.artifact, inspection.render, 'a red apple');
 * ```
 */
export function runChecks(
  artifact: Artifact,
  render: RenderResult | null,
  prompt?: string,
  options?: Partial<CheckOptions>,
  rubricTerms?: readonly string[],
): CheckResult[] {
  const input = {
    artifact,
    render,
    prompt,
    options: resolveCheckOptions(options),
    ...(rubricTerms?.length ? { rubricTerms } : {}),
  };
  return CHECKS.map((check) => check(input));
}

/**
 * Folds check results into the record's `checks` summary: the flags and numbers a reward
 * reads and a report shows (null where a check needs a render that did not happen).
 */
export function summarizeChecks(
  artifact: Artifact,
  render: RenderResult | null,
  checks: CheckResult[],
): ChecksSummary {
  const byName = new Map(checks.map((c) => [c.name, c]));
  const flag = (name: string) => byName.get(name)?.flag === true;
  const values: Record<string, number> = {};
  for (const c of checks) values[c.name] = c.value;
  const ok = render?.ok === true;
  return {
    renders: ok,
    blank: ok && flag('blank'),
    // The check's number: ink against the picture's own ground (see pixel-checks.ts).
    ink_coverage: ok ? (byName.get('ink_coverage')?.value ?? render.pixels.inkCoverage) : null,
    clipped: ok ? flag('clipped') : null,
    text_in_image: flag('text_in_image'),
    clutter: flag('clutter'),
    judge_text: flag('judge_text'),
    output_tokens: artifact.tokens.completion,
    svg_tokens: artifact.tokens.svg,
    dwt_stages: [...artifact.dwt.stages],
    dwt_valid: artifact.dwt.valid,
    values,
  };
}
