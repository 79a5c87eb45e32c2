// A valid ScoreRecord for unit tests, with neutral defaults (measured, reward 0.5, clean
// checks): a test names only the fields its case is about.
import type { ChecksSummary, ScoreRecord } from '../../src/core/record.ts';
import { emptyUsage } from '../../src/core/usage.ts';

export type ScoreRecordFields = Partial<Omit<ScoreRecord, 'checks'>> & {
  checks?: Partial<ChecksSummary>;
};

export function scoreRecord(o: ScoreRecordFields = {}): ScoreRecord {
  const { checks, ...rest } = o;
  return {
    id: 'x',
    prompt_id: 'p',
    reward: 0.5,
    status: 'ok',
    reward_kind: 'ruler',
    criteria: [],
    cached: false,
    usage: emptyUsage(),
    render_ms: 1,
    ...rest,
    checks: {
      renders: true,
      blank: false,
      ink_coverage: 0.5,
      clipped: false,
      text_in_image: false,
      clutter: false,
      output_tokens: 1,
      svg_tokens: 1,
      dwt_stages: [],
      dwt_valid: false,
      values: {},
      ...checks,
    },
  };
}
