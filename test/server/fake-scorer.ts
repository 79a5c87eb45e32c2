// An in-test RolloutScorer for route-level tests of the server (the real scorer is exercised
// by the end-to-end tests). It reads the reward a test wants from the completion text
// (`reward=0.25`), so each test states its expected numbers, and it records every call.
import type { RewardKind, ScoreRecord } from '../../src/core/record.ts';
import { emptyUsage } from '../../src/core/usage.ts';
import { ScorerConfigError } from '../../src/pipeline/score.ts';
import type { RolloutInput, RolloutScorer, ScoreBatchOptions } from '../../src/pipeline/types.ts';
import { fixtureComponents } from '../support/score-record.ts';

export interface FakeScorer extends RolloutScorer {
  calls: Array<{ items: RolloutInput[]; opts?: ScoreBatchOptions }>;
  closed: boolean;
  /** Resolves pending batches when the test says so (for backpressure / drain tests). */
  hold(): () => void;
}

const checks = (renders: boolean) => ({
  renders,
  blank: false,
  ink_coverage: renders ? 0.3 : null,
  clipped: false,
  text_in_image: false,
  clutter: false,
  output_tokens: 10,
  svg_tokens: 5,
  dwt_stages: [],
  dwt_valid: false,
  values: {},
});

export function fakeRecord(item: RolloutInput, kind: RewardKind = 'ruler'): ScoreRecord {
  const base = {
    id: item.id,
    prompt_id: item.prompt_id ?? null,
    reward_kind: kind,
    components: fixtureComponents(kind, 0, 'unscoreable'),
    cached: false,
    usage: emptyUsage(),
  };
  if (!item.prompt_id && !item.prompt) {
    return {
      ...base,
      reward: 0,
      status: 'unscoreable',
      reason: 'no_rubric',
      criteria: [],
      checks: checks(false),
      render_ms: null,
    };
  }
  if (item.completion.includes('JUDGE_ERROR')) {
    return {
      ...base,
      reward: 0,
      status: 'grader_error',
      reason: 'judge_error',
      criteria: [],
      checks: checks(true),
      render_ms: 3,
    };
  }
  const m = /reward=([0-9.]+)/.exec(item.completion);
  if (!m) {
    return {
      ...base,
      reward: 0,
      status: 'unscoreable',
      reason: 'no_svg',
      criteria: [],
      checks: checks(false),
      render_ms: null,
    };
  }
  const r = Number(m[1]);
  return {
    ...base,
    components: fixtureComponents(kind, r),
    reward: r,
    status: 'ok',
    criteria: [
      { key: 'concept', axis: 'semantic', weight: 5, score: r, source: 'judge' },
      { key: 'parts', axis: 'semantic', weight: 5, score: r, source: 'judge' },
    ],
    checks: checks(true),
    usage: { ...emptyUsage(), calls: 1, latencyMs: 20 },
    render_ms: 4,
  };
}

export function createFakeScorer(): FakeScorer {
  let gate: Promise<void> | undefined;
  const scorer: FakeScorer = {
    calls: [],
    closed: false,
    hold() {
      let open!: () => void;
      gate = new Promise((resolve) => {
        open = resolve;
      });
      return () => {
        gate = undefined;
        open();
      };
    },
    async scoreBatch(items, opts) {
      scorer.calls.push({ items, opts });
      const kinds: RewardKind[] =
        opts?.reward === undefined
          ? ['ruler']
          : typeof opts.reward === 'string'
            ? [opts.reward]
            : [...opts.reward];
      if (kinds.includes('hybrid')) {
        // What the real scorer does when no hybrid rewarder is configured.
        throw new ScorerConfigError(
          'hybrid_unavailable',
          'reward "hybrid" needs a hybrid rewarder',
        );
      }
      if (gate) await gate;
      return items.map((i) => fakeRecord(i, kinds[0]));
    },
    async close() {
      scorer.closed = true;
    },
  };
  return scorer;
}
