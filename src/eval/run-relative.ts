// `rubrica eval --judging pairwise|group` (issue 37): relative judging compares the rollouts of
// one GRPO group (its prompt, core/group-key.ts) with each other, so eval cannot score a
// rollout alone as it is read. Here:
//  - the resume rule: a group with any rollout not done (never scored, a grader fault, an
//    interrupted run) is judged again WHOLE — its finished records are redone too, so every
//    record of a group comes from one fit over the same group, exactly as an uninterrupted
//    run gives; the comparisons already answered come from the answer cache (per ordered
//    pair / ordered picture list), so redoing them asks the judge nothing;
//  - the run order: the rollouts to score, each group's members together (groups in
//    first-seen order), so a group completes soon after it starts and memory stays bounded;
//  - the batcher: each rollout waits until its group is complete, then the group is scored
//    as one batch (the scorer's scoreBatch, which runs relative judging);
//  - the per-reward split: relative judging replaces the FIRST reward's verdict (the record's
//    own `reward`); eval keeps one verdict per reward under `scores`, so that reward carries
//    the relative reward, its `relative` block and the comparisons' cost.
import { groupIndices, groupKey } from '../core/group-key.ts';
import type { RewardKind, RolloutInput, ScoreRecord } from '../core/record.ts';
import { addUsage, emptyUsage, type Usage } from '../core/usage.ts';
import { recordsByKind } from '../pipeline/record.ts';

/** The judging modes that compare a group's rollouts with each other. */
export function isRelativeJudging(judging: string | undefined): boolean {
  return judging === 'pairwise' || judging === 'group';
}

/**
 * The ids to judge again because their group is not finished: every member of a group in
 * which some rollout is not done (`done(id)` false).
 */
export function unfinishedGroupIds(
  inputs: readonly (RolloutInput & { prompt_id: string })[],
  done: (id: string) => boolean,
): Set<string> {
  const out = new Set<string>();
  for (const members of groupIndices(inputs).values()) {
    if (members.every((i) => done(inputs[i]!.id))) continue;
    for (const i of members) out.add(inputs[i]!.id);
  }
  return out;
}

/** `items` with each group's members together, groups in first-seen order (stable). */
export function groupedOrder<T extends RolloutInput>(items: readonly T[]): T[] {
  return [...groupIndices(items).values()].flat().map((i) => items[i]!);
}

/**
 * Holds each item until every item of its group in `todo` has arrived, then scores the group
 * with `scoreGroup` (one result per item, in the order given) and answers each waiter. When
 * `drain` aborts (SIGTERM: no new rollout is taken, those in flight are written), a group
 * whose other members will never come is scored as it stands, so nothing waits forever; the
 * resume rule judges that group again whole on the next run (its rest is not done).
 */
export function createEvalGroupBatcher<I extends RolloutInput, O>(
  todo: readonly I[],
  scoreGroup: (items: I[]) => Promise<O[]>,
  drain?: AbortSignal,
): (item: I) => Promise<O> {
  const want = new Map<string, number>();
  for (const it of todo) want.set(groupKey(it), (want.get(groupKey(it)) ?? 0) + 1);
  type Waiter = { ok: (o: O) => void; fail: (e: unknown) => void };
  type Group = { items: I[]; waiters: Waiter[] };
  const open = new Map<string, Group>();
  const fire = (key: string, group: Group) => {
    open.delete(key);
    scoreGroup(group.items).then(
      (outs) => {
        for (const [k, w] of group.waiters.entries()) w.ok(outs[k]!);
      },
      (err: unknown) => {
        for (const w of group.waiters) w.fail(err);
      },
    );
  };
  drain?.addEventListener(
    'abort',
    () => {
      for (const [key, group] of [...open]) fire(key, group);
    },
    { once: true },
  );
  return (item) => {
    const key = groupKey(item);
    let g = open.get(key);
    if (!g) {
      g = { items: [], waiters: [] };
      open.set(key, g);
    }
    const group = g;
    const answer = new Promise<O>((ok, fail) => group.waiters.push({ ok, fail }));
    group.items.push(item);
    // An item the plan did not count (it cannot happen in eval) makes a group of its own size.
    if (drain?.aborted || group.items.length >= (want.get(key) ?? group.items.length))
      fire(key, group);
    return answer;
  };
}

/** a − b, field by field (a cost known only as a total: null stays null). */
function subtractUsage(a: Usage, b: Usage): Usage {
  return {
    calls: a.calls - b.calls,
    inputTokens: a.inputTokens - b.inputTokens,
    outputTokens: a.outputTokens - b.outputTokens,
    costUsd: a.costUsd === null || b.costUsd === null ? null : a.costUsd - b.costUsd,
    latencyMs: a.latencyMs - b.latencyMs,
  };
}

/**
 * One verdict per reward (eval's `scores`) from a record that relative judging may have
 * re-scored. The record's own fields are the first reward's verdict as relative judging left
 * it (relative reward, components, `cached`, `relative`, the absolute interval dropped where
 * it does not describe the relative score), so that reward takes them whole, with its own usage
 * plus what the comparisons cost (the record's total past what its rewards cost alone); the
 * other rewards keep their absolute verdicts, without `relative`.
 */
export function relativeScoresByKind(
  record: ScoreRecord,
): Partial<Record<RewardKind, ScoreRecord>> {
  const byKind = recordsByKind(record);
  if (!record.relative || !record.rewards) return byKind;
  const kind = record.reward_kind;
  const own = record.rewards[kind];
  if (!own) return byKind;
  // recordsByKind spreads the record's own fields under each reward: `relative` is the first
  // reward's alone.
  for (const k of Object.keys(byKind) as RewardKind[]) {
    if (k === kind) continue;
    const { relative: _r, ...rest } = byKind[k]!;
    byKind[k] = rest;
  }
  let alone = emptyUsage();
  for (const r of Object.values(record.rewards)) if (r) alone = addUsage(alone, r.usage);
  const { rewards: _all, ...first } = record;
  byKind[kind] = { ...first, usage: addUsage(own.usage, subtractUsage(record.usage, alone)) };
  return byKind;
}
