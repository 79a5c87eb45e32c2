// Assembles one rollout's ScoreRecord from the verdicts of every reward asked for: the first
// reward's verdict is the record's own (`reward`, `status`, `criteria`, `tree`, …), all of them
// sit under `rewards` when there is more than one, and `usage` sums them all (it is what the
// rollout cost).
import { isRubricaError } from '../core/errors.ts';
import type {
  ChecksSummary,
  RewardKind,
  RewardResult,
  RolloutInput,
  ScoreRecord,
} from '../core/record.ts';
import { addUsage, emptyUsage } from '../core/usage.ts';
import type { Inspection } from '../inspect/types.ts';
import { reasonResult } from '../reward/result.ts';

export function assembleRecord(
  rollout: RolloutInput,
  promptId: string | null,
  inspection: Inspection | null,
  results: readonly RewardResult[],
): ScoreRecord {
  const first = results[0]!;
  let usage = emptyUsage();
  for (const r of results) usage = addUsage(usage, r.usage);
  return {
    id: rollout.id,
    prompt_id: promptId,
    ...first,
    usage,
    checks: inspection?.summary ?? zeroChecks(),
    render_ms: inspection?.render?.ms ?? null,
    ...(results.length > 1
      ? { rewards: Object.fromEntries(results.map((r) => [r.reward_kind, r])) }
      : {}),
  };
}

/**
 * The verdict of a reward whose computation threw. Inspection and judging return values, so
 * only a grader fault gets here: a cache that cannot be read or written (`cache_error`) or a
 * bug (`infra_error`); either way never a verdict on the drawing.
 */
export function faultResult(kind: RewardKind, err: unknown): RewardResult {
  const cache = isRubricaError(err) && err.code === 'cache_error';
  const message = err instanceof Error ? err.message : String(err);
  return reasonResult(kind, cache ? 'cache_error' : 'infra_error', message);
}

/** The record of a rollout whose inspection threw (a bug: checks are unknown, not failed). */
export function faultRecord(
  rollout: RolloutInput,
  kinds: readonly RewardKind[],
  err: unknown,
): ScoreRecord {
  const results = kinds.map((k) => faultResult(k, err));
  return assembleRecord(rollout, rollout.prompt_id ?? null, null, results);
}

/** One ScoreRecord per reward of a record (the shape eval runs keep under `scores`). */
export function recordsByKind(record: ScoreRecord): Partial<Record<RewardKind, ScoreRecord>> {
  const { rewards, ...own } = record;
  if (!rewards) return { [record.reward_kind]: own };
  const out: Partial<Record<RewardKind, ScoreRecord>> = {};
  for (const [kind, r] of Object.entries(rewards) as [RewardKind, RewardResult][]) {
    // Each reward's own verdict and cost; the rollout's checks and render time are shared.
    out[kind] = { ...own, ...r };
  }
  return out;
}

function zeroChecks(): ChecksSummary {
  return {
    renders: false,
    blank: false,
    ink_coverage: null,
    clipped: null,
    text_in_image: false,
    clutter: false,
    output_tokens: 0,
    svg_tokens: 0,
    dwt_stages: [],
    dwt_valid: false,
    values: {},
  };
}
