// One scored rollout: a line of `rubrica score`'s output, a result of POST /v1/rewards,
// a line of an eval run's results.jsonl. Everything downstream reads this shape.
import type { CriterionScore } from './criteria.ts';
import type { UnscoreableReason } from './errors.ts';
import type { Usage } from './usage.ts';

export interface ChecksSummary {
  renders: boolean;
  blank: boolean;
  ink_coverage: number | null;
  clipped: boolean | null;
  text_in_image: boolean;
  clutter: boolean;
  output_tokens: number;
  svg_tokens: number;
  dwt_stages: string[];
  dwt_valid: boolean;
  /** Numbers behind the flags, keyed by check name. */
  values: Record<string, number>;
}

export interface ScoreRecord {
  id: string;
  prompt_id: string | null;
  reward: number;
  status: 'ok' | 'unscoreable';
  reason?: UnscoreableReason;
  /** Human-readable detail for `reason`. */
  message?: string;
  /** Which reward scored it: ruler | universal | rubric-s | hybrid. */
  reward_kind: string;
  criteria: CriterionScore[];
  checks: ChecksSummary;
  cached: boolean;
  usage: Usage;
  /** Render wall time, ms (null when nothing was rendered). */
  render_ms: number | null;
}
