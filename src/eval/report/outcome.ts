// How the report classes a scored rollout: scored by the judge, rendered but not judged
// (judge down or no rubric), or failed before a judge could look (no SVG, no render,
// blank). Cards are coloured and filtered by this class and by the precise reason.
import type { UnscoreableReason } from '../../core/errors.ts';
import type { ScoreRecord } from '../../core/record.ts';

export type Outcome = 'scored' | 'not_judged' | 'failed';

const NOT_JUDGED: ReadonlySet<UnscoreableReason> = new Set([
  'judge_error',
  'scorer_error',
  'cache_error',
  'infra_error',
  'deadline',
  'no_rubric',
  'asset_invalid',
  'asset_missing',
  'asset_outside_root',
  'assets_too_large',
]);

export const REASON_LABELS: Record<UnscoreableReason, string> = {
  no_svg: 'no SVG in the answer',
  truncated: 'answer cut off mid-SVG',
  parse_error: 'SVG does not parse',
  too_large: 'SVG over a size limit',
  timeout: 'render timed out',
  render_crash: 'renderer crashed',
  render_error: 'renderer refused the SVG',
  blank: 'blank picture',
  no_code: 'no code of its domain in the answer',
  exec_error: 'the code failed to run',
  no_output: 'the code drew nothing',
  sandbox_error: 'the sandbox failed',
  judge_error: 'not judged (judge error)',
  scorer_error: 'not scored (scorer error)',
  cache_error: 'not scored (cache error)',
  infra_error: 'not scored (infrastructure error)',
  deadline: 'not scored by its deadline',
  no_rubric: 'not judged (no rubric for this prompt)',
  asset_invalid: 'not judged (a data file name or path is invalid)',
  asset_missing: 'not judged (a data file is missing)',
  asset_outside_root: 'not judged (a data file is outside the data root)',
  assets_too_large: 'not judged (data files over the limit)',
  // A gated rollout's reason is the check that flagged it (status `gated`, issue 41).
  renders: 'gated: did not render',
  ink_coverage: 'gated: too little ink',
  clipped: 'gated: clipped by the frame',
  text_in_image: "gated: the prompt's words written in",
  clutter: 'gated: clutter',
  output_tokens: 'gated: too many output tokens',
  dwt: 'gated: Drawing-with-Thought stages',
  judge_text: 'gated: text addressed to the judge',
  missing_glyphs: 'gated: characters drawn with no glyph',
  warnings: 'gated: renderer warnings',
  empty_data: 'gated: empty data',
  console_errors: 'gated: console errors',
  blocked_requests: 'gated: blocked requests',
  horizontal_overflow: 'gated: horizontal overflow',
  page_clipped: 'gated: page clipped',
};

export const OUTCOME_LABELS: Record<Outcome, string> = {
  scored: 'scored',
  not_judged: 'rendered, not judged',
  failed: 'failed',
};

export function outcomeOf(score: ScoreRecord): Outcome {
  if (score.status === 'ok') return 'scored';
  if (score.reason && NOT_JUDGED.has(score.reason)) return 'not_judged';
  return 'failed';
}

/** A short label for the record's status: "scored" or the reason it has no score. */
export function statusLabel(score: ScoreRecord): string {
  if (score.status === 'ok') return 'scored';
  return score.reason ? REASON_LABELS[score.reason] : 'unscoreable';
}
