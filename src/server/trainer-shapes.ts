// ScoreRecords reshaped for trainers. verl appends each dict key to a per-batch list
// (reward_extra_info[key].append(value)), so every dict of one batch must carry the SAME keys;
// OpenRLHF turns extra_logs into tensors, so its values are numbers only.
//
// Both trainers compute advantages from the scores themselves, so a grader fault (the judge,
// a scorer, the cache failed) is sent as the mean score of its measured group-mates — its own
// advantage is then 0 and its group's mean unchanged — and flagged `grader_error: 1`; the
// rollout's true status stays in `status`/`reason` (verl) and the flags. A gated rollout
// (status `gated`, issue 41) is not a fault: its 0 is the policy's own, sent as is and counted
// in its group's statistics, and flagged `gated: 1`.
//
// Reward components travel flat as `comp_<key>` (REWARD_COMPONENT_KEYS of the batch's first
// reward kind: the same keys on every item and every path). For a grader fault they are
// imputed like the score — each the mean of the measured group-mates' — so a GDPO trainer,
// which normalises each component within its group, gives the fault advantage 0 on every
// component too (and the comp_ values still sum to the score sent).

import { groupIndices } from '../core/group-key.ts';
import type { RewardKind, RolloutInput, ScoreRecord } from '../core/record.ts';
import { isGraderFaultRecord } from '../core/status.ts';
import { REWARD_COMPONENT_KEYS } from '../reward/components.ts';
import { imputedScores } from './groups.ts';
import type { VerlResult } from './schemas.ts';

type GroupRef = Pick<RolloutInput, 'id' | 'prompt_id' | 'prompt'>;

const flag = (b: boolean | undefined | null): number => (b ? 1 : 0);

/**
 * The batch a request's records were scored in, when it is larger than the request (the
 * per-sample routes gather requests, src/server/gather.ts): imputation sees the whole group.
 */
export interface ScoredBatch {
  items: readonly GroupRef[];
  records: readonly ScoreRecord[];
}

/** Component field name in flat trainer extras ("comp_semantic"). */
export const componentField = (key: string) => `comp_${key}`;

/** The component keys a batch's flat extras carry: those of its first reward kind. */
export function componentKeys(records: readonly ScoreRecord[], fallback?: RewardKind): string[] {
  const kind = records[0]?.reward_kind ?? fallback;
  return kind ? [...REWARD_COMPONENT_KEYS[kind]] : [];
}

/** What a trainer is sent for each record: its score and components, faults imputed. */
export interface TrainerValues {
  scores: number[];
  components: Record<string, number>[];
}

/**
 * Scores and components for a request's records: a grader fault gets its measured
 * group-mates' means (score and each component), computed over the whole scored batch.
 */
export function trainerValues(
  records: readonly ScoreRecord[],
  items: readonly GroupRef[],
  batch?: ScoredBatch,
): TrainerValues {
  const all = batch ?? { items, records };
  const offset = batch ? all.records.indexOf(records[0]!) : 0;
  const scores = imputedScores(all.items, all.records);
  const keys = componentKeys(all.records);
  const comps = all.records.map((r) =>
    Object.fromEntries(keys.map((k) => [k, r.components?.[k] ?? 0])),
  );
  for (const idx of groupIndices(all.items).values()) {
    const measured = idx.filter((i) => !isGraderFaultRecord(all.records[i]!));
    for (const i of idx) {
      if (!isGraderFaultRecord(all.records[i]!)) continue;
      for (const k of keys) {
        const vals = measured.map((m) => comps[m]![k]!);
        comps[i]![k] = vals.length ? vals.reduce((a, b) => a + b, 0) / vals.length : 0;
      }
    }
  }
  const at = Math.max(offset, 0);
  return {
    scores: scores.slice(at, at + records.length),
    components: comps.slice(at, at + records.length),
  };
}

/** The numeric status flags every trainer shape carries (same keys on every path). */
export interface StatusFields {
  scored: number;
  /** 1 when a gated check stopped the rollout (issue 41): a real 0, never imputed. */
  gated: number;
  grader_error: number;
  judge_error: number;
  no_rubric: number;
  renders: number;
  blank: number;
  cached: number;
  judge_calls: number;
}

/** Status fields shared by the verl, OpenRLHF, slime and NeMo Gym shapes (all numeric). */
export function statusFields(r: ScoreRecord): StatusFields {
  return {
    scored: flag(r.status === 'ok'),
    gated: flag(r.status === 'gated'),
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
export function toVerlResults(
  records: ScoreRecord[],
  items: readonly GroupRef[],
  batch?: ScoredBatch,
): VerlResult[] {
  const { scores, components } = trainerValues(records, items, batch);
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
    for (const [k, v] of Object.entries(components[i]!)) out[componentField(k)] = v;
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
  batch?: ScoredBatch,
): OpenRlhfResult {
  const { scores: rewards, components } = trainerValues(records, items, batch);
  const kinds = otherRewardKinds(records);
  const extra: Record<string, number[]> = {};
  records.forEach((r, i) => {
    const fields: Record<string, number> = { ...statusFields(r) };
    for (const [k, v] of Object.entries(components[i]!)) fields[componentField(k)] = v;
    // OpenRLHF's extra_logs are tensors: a missing further reward is logged as 0.
    for (const k of kinds) fields[rewardField(k)] = r.rewards?.[k]?.reward ?? 0;
    for (const [key, value] of Object.entries(fields)) {
      const list = extra[key];
      if (list) list.push(value);
      else extra[key] = [value];
    }
  });
  return { rewards, scores: [...rewards], extra_logs: extra };
}

/** OpenRLHF's answer to an empty batch: empty lists, the fixed status keys with no values. */
export function emptyOpenRlhfResult(kind?: RewardKind): OpenRlhfResult {
  const keys = [
    ...Object.keys(statusFields(EMPTY_PROBE)),
    ...componentKeys([], kind).map(componentField),
  ];
  return { rewards: [], scores: [], extra_logs: Object.fromEntries(keys.map((k) => [k, []])) };
}

// Only its keys are read: statusFields' key set does not depend on the record.
const EMPTY_PROBE = { status: 'ok', cached: false } as ScoreRecord;

/** slime's remote-RM answer for one sample (read with --reward-key reward). */
export function toSlimeResult(r: ScoreRecord, score: number, components: Record<string, number>) {
  return {
    reward: score,
    status: r.status,
    reason: r.reason ?? '',
    ...statusFields(r),
    components,
  };
}

/**
 * NeMo Gym's verify answer: the request echoed, `reward` and `reward_components`, the flat
 * figures as top-level numbers (NeMo Gym's aggregate metrics read only those), and on a grader
 * fault the tag its judge_failsafe sets (`_ng_failure_class: "judge_failed"`), with reward 0.0
 * that the tag marks as no measurement.
 */
export function toVerifyResult(body: Record<string, unknown>, r: ScoreRecord) {
  const fault = isGraderFaultRecord(r);
  const comps = r.components;
  const flat: Record<string, number> = { ...statusFields(r) };
  for (const [k, v] of Object.entries(comps)) flat[componentField(k)] = v;
  return {
    ...body,
    reward: fault ? 0 : r.reward,
    reward_components: comps,
    ...flat,
    rubrica_status: r.status,
    rubrica_reason: r.reason ?? '',
    ...(fault
      ? {
          _ng_failure_class: 'judge_failed' as const,
          _ng_failure_judge_error: `${r.reason ?? 'grader_error'}: ${r.message ?? 'grader fault'}`,
        }
      : {}),
  };
}
