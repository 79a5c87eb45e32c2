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
]);
export type UnscoreableCode = z.infer<typeof UnscoreableReasonSchema>;

/** Which part of the grader failed. */
export const GraderFaultSchema = z.enum([
  'judge_error',
  'scorer_error',
  'cache_error',
  'infra_error',
]);
export type GraderFault = z.infer<typeof GraderFaultSchema>;

export const ReasonSchema = z.enum([
  ...UnscoreableReasonSchema.options,
  ...GraderFaultSchema.options,
]);
/** Every reason a record can carry (a rule-based zero or a grader fault). */
export type UnscoreableReason = z.infer<typeof ReasonSchema>;

export const StatusSchema = z.enum(['ok', 'unscoreable', 'grader_error']);
export type Status = z.infer<typeof StatusSchema>;

const FAULTS: ReadonlySet<string> = new Set(GraderFaultSchema.options);

export function isGraderFault(reason: string | undefined | null): reason is GraderFault {
  return reason != null && FAULTS.has(reason);
}

/** The status a reason implies: grader faults are `grader_error`, every other reason `unscoreable`. */
export function statusOf(reason: UnscoreableReason): Exclude<Status, 'ok'> {
  return isGraderFault(reason) ? 'grader_error' : 'unscoreable';
}
