// ScoreRecords reshaped for trainers. verl appends each dict key to a per-batch list
// (reward_extra_info[key].append(value)), so every dict of one batch must carry the SAME keys;
// OpenRLHF turns extra_logs into tensors, so its values are numbers only.
import type { ScoreRecord } from '../core/record.ts';
import type { VerlResult } from './schemas.ts';

const flag = (b: boolean | undefined | null): number => (b ? 1 : 0);

/** Status fields shared by the verl and OpenRLHF shapes (all numeric). */
function statusFields(r: ScoreRecord): Record<string, number> {
  return {
    scored: flag(r.status === 'ok'),
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
export function toVerlResults(records: ScoreRecord[]): VerlResult[] {
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
  return records.map((r) => {
    const out: VerlResult = {
      score: r.reward,
      status: r.status,
      reason: r.reason ?? '',
      ...statusFields(r),
      render_ms: r.render_ms,
    };
    const byKey = new Map(r.criteria.map((c) => [c.key, c.score]));
    for (const key of keys) out[criterionField(key)] = byKey.get(key) ?? null;
    return out;
  });
}

export interface OpenRlhfResult {
  rewards: number[];
  scores: number[];
  extra_logs: Record<string, number[]>;
}

/** OpenRLHF's remote reward answer: rewards (trained on), scores (used by dynamic filtering), extra_logs. */
export function toOpenRlhfResult(records: ScoreRecord[]): OpenRlhfResult {
  const rewards = records.map((r) => r.reward);
  const extra: Record<string, number[]> = {};
  for (const r of records) {
    for (const [key, value] of Object.entries(statusFields(r))) {
      const list = extra[key];
      if (list) list.push(value);
      else extra[key] = [value];
    }
  }
  return { rewards, scores: [...rewards], extra_logs: extra };
}
