// Group judging of a batch (issue 37, `--judging group`): after every rollout of the batch was
// inspected and scored alone, the rollouts of one GRPO group (core/group-key.ts) that rendered
// and were judged are shown to the judge together — all pictures in one call — and scored
// per picture and rubric item on the absolute path's digit scale (judge/group.ts).
//
// Position bias, removed by construction: the members are put in a canonical order (by the
// picture's hash, then the rollout id) and every chunk is shown twice, forward and reversed;
// a picture's item scores are the mean over the orders answered. A position effect that is
// linear in the position, b(p) = α + β·p, then adds α + β·(n−1)/2 to every picture of a chunk
// of n alike (p + (n−1−p) = n−1 for each), so it cannot change a ranking or a GRPO advantage.
// `rotation` instead shows the chunk in all n cyclic rotations (n calls): every picture takes
// every position exactly once, so ANY position effect (a first-picture bonus too) adds the same
// mean to every picture. Because the order shown is derived from the canonical order only, a
// rollout gets the same reward to the last bit whichever order its group arrives in.
//
// Chunks: a group larger than GROUP_CHUNK_MAX (8) is cut, in canonical order, into the fewest
// chunks of at most 8 whose sizes differ by at most one. The chunks are tied together by the
// scale itself: every picture is scored against the same rubric bands on the same 0–9 scale
// (the absolute path's), the others in its call are only context, so scores from two chunks
// are read on one scale. The canonical order is by picture hash, unrelated to quality, so a
// chunk is an unbiased draw of the group.
//
// Faults: an order whose call faulted is masked (the other orders carry the score); a chunk
// with no order answered, a group of one and a rollout whose own score was not ok keep the
// absolute record (`relative.fallback`, or no `relative`). The record's shape is unchanged for
// trainers: `reward` is the group score, the components are scaled by one factor to sum to it
// (reward/components.ts); the absolute interval no longer describes it and is left out.
import type { RolloutInput, ScoreRecord } from '../core/record.ts';
import { addUsage, emptyUsage, type Usage } from '../core/usage.ts';
import type { Asked } from '../judge/cached-ask.ts';
import { GROUP_CHUNK_MAX, type GroupAnswer, type GroupJudge } from '../judge/group.ts';
import { tallyJudgeInput } from '../judge/judge-input-tally.ts';
import type { GroupOrders } from '../judge/strategy.ts';
import { rewardComponents } from '../reward/components.ts';
import { weightedReward } from '../reward/weighted.ts';
import type { RubricItem } from '../rubric/schema.ts';
import { canonicalOrder, judgeableGroups } from './judgeable-groups.ts';

/** What a rollout brings to a group call: its picture and what its judge was asked about. */
export interface GroupEntry {
  record: ScoreRecord;
  png: Buffer | null;
  context: { prompt: string; items: readonly RubricItem[]; assets: string | null } | null;
}

export interface GroupOptions {
  judge: GroupJudge;
  orders?: GroupOrders;
  /** Pictures per call at most (default GROUP_CHUNK_MAX). */
  chunkMax?: number;
  signal?: AbortSignal;
}

/** Sizes of the fewest chunks of at most `max` for a group of n, differing by at most one. */
export function chunkSizes(n: number, max = GROUP_CHUNK_MAX): number[] {
  const k = Math.max(1, Math.ceil(n / Math.max(2, max)));
  return Array.from({ length: k }, (_, i) => Math.floor(n / k) + (i < n % k ? 1 : 0));
}

/** The orders a chunk of n is shown in: each a permutation of 0…n−1 (position → member). */
export function groupOrders(n: number, orders: GroupOrders = 'mirror'): number[][] {
  const fwd = Array.from({ length: n }, (_, i) => i);
  if (orders === 'rotation') return fwd.map((_, r) => fwd.map((i) => (i + r) % n));
  return [fwd, [...fwd].reverse()];
}

/**
 * Re-scores the groups of a batch with group calls; returns one record per entry, in input
 * order. Never throws for a judge's failure (masked); only a bug throws.
 */
export async function judgeGroups(
  items: readonly RolloutInput[],
  entries: readonly GroupEntry[],
  opts: GroupOptions,
): Promise<ScoreRecord[]> {
  const out = entries.map((e) => e.record);
  const groups = judgeableGroups(items, entries);
  const jobs: Promise<void>[] = [];
  for (const members of groups) {
    if (members.length < 2) continue; // a group of one keeps its absolute score
    const canon = canonicalOrder(members, entries);
    let at = 0;
    for (const size of chunkSizes(canon.length, opts.chunkMax)) {
      const chunk = canon.slice(at, at + size);
      at += size;
      jobs.push(judgeChunk(chunk, canon.length, entries, out, opts));
    }
  }
  await Promise.all(jobs);
  return out;
}

async function judgeChunk(
  chunk: number[],
  groupSize: number,
  entries: readonly GroupEntry[],
  out: ScoreRecord[],
  opts: GroupOptions,
): Promise<void> {
  const ctx = entries[chunk[0]!]!.context!;
  const orders = groupOrders(chunk.length, opts.orders);
  // The group calls run outside any one rollout's tally: what the neutraliser rewrote in them
  // is counted here and added to every member's record (each member's call carried it).
  const { value: answers, neutralised } = await tallyJudgeInput(() =>
    Promise.all(
      orders.map((order) =>
        opts.judge.rate({
          prompt: ctx.prompt,
          items: ctx.items,
          pictures: order.map((m) => entries[chunk[m]!]!.png!),
          assets: ctx.assets,
          ...(opts.signal ? { signal: opts.signal } : {}),
        }),
      ),
    ),
  );
  // A call's cost is split evenly between the pictures it showed.
  let usage = emptyUsage();
  for (const a of answers) usage = addUsage(usage, a.usage);
  const share = scaleUsage(usage, 1 / chunk.length);
  const ok = answers.filter((a): a is Extract<Asked<GroupAnswer>, { ok: true }> => a.ok);
  const scoring = ok.some((a) => a.value.scoring === 'greedy') ? 'greedy' : 'expected';
  chunk.forEach((idx, m) => {
    const rec = entries[idx]!.record;
    const itemSums = new Map<string, number>();
    const orderScores: number[] = [];
    const positions: number[] = [];
    orders.forEach((order, o) => {
      const a = answers[o]!;
      if (!a.ok) return; // masked: the other orders carry the score
      const pos = order.indexOf(m);
      const got = a.value.pictures[pos]!.scores;
      for (const it of ctx.items)
        itemSums.set(it.key, (itemSums.get(it.key) ?? 0) + got[it.key]!.score);
      orderScores.push(
        weightedReward(ctx.items.map((it) => ({ ...it, score: got[it.key]!.score }))) ?? 0,
      );
      positions.push(pos);
    });
    const answered = orderScores.length;
    const relative = {
      judging: 'group' as const,
      group_size: groupSize,
      chunk_size: chunk.length,
      orders: orders.length,
      answered,
      masked: orders.length - answered,
      order_scores: orderScores,
      positions,
      scoring: scoring as 'expected' | 'greedy',
      judge: opts.judge.modelId,
      prompt_hash: opts.judge.promptVersion,
      absolute_reward: rec.reward,
      fallback: answered === 0,
    };
    const base = {
      ...rec,
      usage: addUsage(rec.usage, share),
      ...(neutralised > 0
        ? { judge_input: { neutralised: (rec.judge_input?.neutralised ?? 0) + neutralised } }
        : {}),
    };
    if (answered === 0) {
      // Every order of this chunk faulted: the absolute score stands.
      out[idx] = { ...base, relative };
      return;
    }
    // The mean item scores over the orders, weighted like the absolute reward (weighted.ts).
    const reward =
      weightedReward(ctx.items.map((it) => ({ ...it, score: itemSums.get(it.key)! / answered }))) ??
      0;
    const { interval: _i, interval_level: _l, interval_calibrated: _c, ...rest } = base;
    out[idx] = {
      ...rest,
      reward,
      components: rewardComponents(rec.reward_kind, rec.tree, reward),
      cached: rec.cached && answers.every((x) => x.ok && x.cached),
      relative: { ...relative, interval_method: 'none', interval_note: GROUP_INTERVAL_NOTE },
    };
  });
}

/**
 * Why a group score has no interval (issue 37): it is a mean over a few orders of one call
 * each (two by default), and a spread over two orders is no interval at a stated level.
 */
const GROUP_INTERVAL_NOTE =
  'group judging: the score is a mean over the orders a chunk was shown in, too few to state an interval at a level';

function scaleUsage(u: Usage, f: number): Usage {
  const out = { ...u } as Record<string, unknown>;
  for (const [k, v] of Object.entries(u)) if (typeof v === 'number') out[k] = v * f;
  return out as Usage;
}
