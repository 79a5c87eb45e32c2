// ScoreRecords reshaped for trainers. verl appends each dict key to a per-batch list
// (reward_extra_info[key].append(value)), so every dict of one batch must carry the SAME keys;
// OpenRLHF turns extra_logs into tensors, so its values are numbers only.
//
// Both trainers compute advantages from the scores themselves, so a grader fault (the judge,
// a scorer, the cache failed) is sent as the mean score of its measured group-mates — its own
// advantage is then 0 and its group's mean unchanged — and flagged `grader_error: 1`; the
// rollout's true status stays in `status`/`reason` (verl) and the flags.

import type { RewardKind, RolloutInput, ScoreRecord } from '../core/record.ts';
import { isGraderFaultRecord } from '../core/status.ts';
import { imputedScores } from './groups.ts';
import type { VerlResult } from './schemas.ts';

type GroupRef = Pick<RolloutInput, 'id' | 'prompt_id' | 'prompt'>;

const flag = (b: boolean | undefined | null): number => (b ? 1 : 0);

/** Status fields shared by the verl and OpenRLHF shapes (all numeric). */
function statusFields(r: ScoreRecord): Record<string, number> {
  return {
    scored: flag(r.status === 'ok'),
    grader_error: flag(isGraderFaultRecord(r)),
    judge_error: flag(r.reason === 'judge_error'),
    no_rubric: flag(r.reason === 'no_rubric'),
    renders: flag(r.checks?.renders),
    blank: flag(r.checks?.blank),
    cached: flag(r.cached),
    judge_calls: r.usage?.calls ?? 0,
  };
}

/** Criterion field name inside the flat verl dict. */
export const criterionField = (key: string) => `crit_${key}`;

/**
 * verl's dict form: `score` plus flat extras. Per-criterion scores appear as `crit_<key>` for
 * the union of criterion keys in the batch; a rollout without that criterion gets null (verl's
 * validation metrics skip None).
 */
export function toVerlResults(records: ScoreRecord[], items: readonly GroupRef[]): VerlResult[] {
  const scores = imputedScores(items, records);
  const kinds = otherRewardKinds(records);
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const r of records) {
    for (const c of r.criteria) {
      if (!seen.has(c.key)) {
        seen.add(c.key);
        keys.push(c.key);
      }
    }
  }
  return records.map((r, i) => {
    const out: VerlResult = {
      score: scores[i]!,
      status: r.status,
      reason: r.reason ?? '',
      ...statusFields(r),
      render_ms: r.render_ms,
    };
    const byKey = new Map(r.criteria.map((c) => [c.key, c.score]));
    for (const key of keys) out[criterionField(key)] = byKey.get(key) ?? null;
    for (const k of kinds) out[rewardField(k)] = r.rewards?.[k]?.reward ?? null;
    return out;
  });
}

/** Field of a further requested reward ("score_hybrid" when rewards were "ruler,hybrid"). */
export const rewardField = (kind: string) => `score_${kind.replace(/-/g, '_')}`;

/** The kinds of every reward beyond the first, in the order of the batch's records. */
function otherRewardKinds(records: readonly ScoreRecord[]): RewardKind[] {
  const seen = new Set<RewardKind>();
  for (const r of records) {
    for (const k of Object.keys(r.rewards ?? {}) as RewardKind[])
      if (k !== r.reward_kind) seen.add(k);
  }
  return [...seen];
}

/** OpenRLHF's reward answer: rewards, scores and per-item logs. */
export interface OpenRlhfResult {
  rewards: number[];
  scores: number[];
  extra_logs: Record<string, number[]>;
}

/** OpenRLHF's remote reward answer: rewards (trained on), scores (used by dynamic filtering), extra_logs. */
export function toOpenRlhfResult(
  records: ScoreRecord[],
  items: readonly GroupRef[],
): OpenRlhfResult {
  const rewards = imputedScores(items, records);
  const kinds = otherRewardKinds(records);
  const extra: Record<string, number[]> = {};
  for (const r of records) {
    const fields = statusFields(r);
    // OpenRLHF's extra_logs are tensors: a missing further reward is logged as 0.
    for (const k of kinds) fields[rewardField(k)] = r.rewards?.[k]?.reward ?? 0;
    for (const [key, value] of Object.entries(fields)) {
      const list = extra[key];
      if (list) list.push(value);
      else extra[key] = [value];
    }
  }
  return { rewards, scores: [...rewards], extra_logs: extra };
}
