// A valid ScoreRecord for unit tests, with neutral defaults (measured, reward 0.5, clean
// checks): a test names only the fields its case is about.
import type { ChecksSummary, RewardKind, ScoreRecord } from '../../src/core/record.ts';
import { emptyUsage } from '../../src/core/usage.ts';
import { REWARD_COMPONENT_KEYS, zeroComponents } from '../../src/reward/components.ts';

/**
 * Components of a fixture record: a measured reward all on the kind's first key (they still
 * sum to the reward, as the contract says), every key 0 otherwise.
 */
export function fixtureComponents(
  kind: RewardKind,
  reward: number,
  status = 'ok',
): Record<string, number> {
  const out = zeroComponents(kind);
  if (status === 'ok') out[REWARD_COMPONENT_KEYS[kind][0]!] = reward;
  return out;
}

export type ScoreRecordFields = Partial<Omit<ScoreRecord, 'checks'>> & {
  checks?: Partial<ChecksSummary>;
};

export function scoreRecord(o: ScoreRecordFields = {}): ScoreRecord {
  const { checks, ...rest } = o;
  const kind = rest.reward_kind ?? 'ruler';
  return {
    components: fixtureComponents(kind, rest.reward ?? 0.5, rest.status ?? 'ok'),
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
