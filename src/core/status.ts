// One meaning of status across every reward and output shape (docs/rubrics-and-judging.md):
//  - `ok`: the drawing was measured; its reward may be 0.
//  - `unscoreable`: a rule-based zero with its reason (no code, truncated, did not render,
//    blank, no rubric). The reward is 0 and it is a fact about the rollout (or its inputs).
//  - `grader_error`: the grader failed (judge, scorer, cache, infrastructure). This is never a
//    measurement of the drawing: it is flagged, left out of GRPO group statistics (advantage
//    0), and re-scored on the next run of a batch command.
// Each vocabulary is a zod enum, so the TypeScript type, the HTTP schema and validation of
// files read back share one source.
import { z } from 'zod';

export const ArtifactErrorCodeSchema = z.enum(['no_svg', 'truncated', 'no_code']);
export const RenderErrorCodeSchema = z.enum([
  'parse_error',
  'too_large',
  'timeout',
  'render_crash',
  'render_error',
  // other domains (src/domains); `blank` is listed once, below
  'exec_error',
  'no_output',
  'sandbox_error',
]);

/** Why a rollout got a rule-based zero. */
export const UnscoreableReasonSchema = z.enum([
  ...ArtifactErrorCodeSchema.options,
  ...RenderErrorCodeSchema.options,
  'blank',
  'no_rubric',
  // The task's data files could not be given to the job (src/core/assets.ts): facts about
  // the inputs, like no_rubric, never the policy's drawing.
  'asset_invalid',
  'asset_missing',
  'asset_outside_root',
  'assets_too_large',
]);
export type UnscoreableCode = z.infer<typeof UnscoreableReasonSchema>;

/** Which part of the grader failed. */
export const GraderFaultSchema = z.enum([
  'judge_error',
  'scorer_error',
  'cache_error',
  'infra_error',
  // The rollout was not scored by its request's deadline (serve --deadline-ms, batch
  // --rollout-timeout-ms): its judge call runs on into the cache, the answer sent is a fault.
  'deadline',
]);
/**
 * A reason that blames the grader, not the policy (a judge, scorer, cache or infrastructure
 * failure): its rollout must be re-scored or dropped, never trained on as a zero.
 */
export type GraderFault = z.infer<typeof GraderFaultSchema>;

/**
 * The checks a rollout can be gated on (`--gate`, issue 41): every deterministic check that
 * raises a flag, in SVG (src/checks) and the other domains (src/domains/checks.ts). Listed
 * here, below the rooms that define them, so a record's `reason` can name one; a test in
 * src/checks holds the two lists together.
 */
export const GateCheckSchema = z.enum([
  'renders',
  'blank',
  'ink_coverage',
  'clipped',
  'text_in_image',
  'clutter',
  'output_tokens',
  'dwt',
  'judge_text',
  'missing_glyphs',
  'warnings',
  'empty_data',
  'console_errors',
  'blocked_requests',
  'horizontal_overflow',
  'page_clipped',
]);
/** A check name that `--gate` accepts. */
export type GateCheck = z.infer<typeof GateCheckSchema>;

export const ReasonSchema = z.enum([
  ...new Set([
    ...UnscoreableReasonSchema.options,
    ...GraderFaultSchema.options,
    // A gated rollout's reason is the gated check that flagged it.
    ...GateCheckSchema.options,
  ]),
]);
/** Every reason a record can carry (a rule-based zero or a grader fault). */
export type UnscoreableReason = z.infer<typeof ReasonSchema>;

/** The zod schema of the three outcomes of scoring (see Status). */
export const StatusSchema = z.enum(['ok', 'unscoreable', 'grader_error', 'gated']);
/**
 * The outcomes of scoring: `ok` (a reward), `unscoreable` (the policy's output earns a
 * rule-based zero, e.g. no SVG), `grader_error` (no reward: the grader failed), `gated` (a
 * gated check flagged the rollout, `reason` names it: a real 0 the policy earned, judged by
 * no judge, issue 41).
 */
export type Status = z.infer<typeof StatusSchema>;

const FAULTS: ReadonlySet<string> = new Set(GraderFaultSchema.options);

/** True when `reason` names a grader fault (GraderFault): the reason-level test. */
export function isGraderFault(reason: string | undefined | null): reason is GraderFault {
  return reason != null && FAULTS.has(reason);
}

/** What the record-level predicates read: a record, a reward inside it, or a line read back. */
export type VerdictLike = { status?: unknown; reason?: unknown };

/**
 * The one test of "the grader failed on this record": status `grader_error`, or — in files
 * written before that status existed, which wrote faults as `unscoreable` — a fault reason.
 * `no_rubric` is deliberately NOT a grader fault: it is `unscoreable`, a fact about the inputs
 * (the rollout names no rubric we hold). A trainer sees its 0 like any rule-based zero (it
 * counts in GRPO group statistics) and `score` does not redo it; see isUnjudged for the
 * places that set it apart. Every room asks this function, never `status === 'grader_error'`.
 */
export function isGraderFaultRecord(r: VerdictLike): boolean {
  return (
    r.status === 'grader_error' || isGraderFault(typeof r.reason === 'string' ? r.reason : null)
  );
}

/**
 * No judgement of the drawing: a grader fault, or `no_rubric` (the prompt had no rubric, so
 * the 0 says nothing about the policy). Summaries leave these out of score means and count
 * them apart (`not_judged`, `grader_errors`), and `eval` scores them again on resume (rubrics
 * may have been added since). docs/rubrics-and-judging.md, "Three outcomes".
 */
export function isUnjudged(r: VerdictLike): boolean {
  return isGraderFaultRecord(r) || r.reason === 'no_rubric';
}

/** The status a reason implies: grader faults are `grader_error`, every other reason `unscoreable`. */
export function statusOf(reason: UnscoreableReason): Exclude<Status, 'ok'> {
  return isGraderFault(reason) ? 'grader_error' : 'unscoreable';
}
