// Relative judging of a batch (issue 37, `--judging pairwise`): after every rollout of the
// batch was inspected and scored alone, the rollouts of one GRPO group (core/group-key.ts)
// that rendered and were judged are compared with each other in ordered pairs — each pair in
// BOTH orders, so a judge that favours the picture shown first cannot move a reward — and a
// Bradley–Terry fit (reward/bradley-terry.ts) turns the comparisons into one score per
// rollout: its expected win rate against a groupmate, in (0, 1).
//
// Invariance: the members of a group are put in a canonical order (by the picture's hash,
// then the rollout id) before pairs are chosen and fitted, so a rollout gets the same reward
// to the last bit whichever order its group arrives in. `circular` compares each member with
// the next in that order, round a ring (N pairs, 2N calls; a group of two is one pair, 2
// calls); `all` compares every pair (N(N−1)/2 pairs, N(N−1) calls).
//
// Faults: a comparison whose call faulted is left out of the fit (masked: never a loss for
// either side). A rollout left with no answered comparison, a group of one, and a rollout
// whose own score was not ok keep the absolute record unchanged (`relative` absent or
// `fallback` set). The record's shape is unchanged for trainers: `reward` is the relative
// score, the components are scaled by one factor to sum to it (the rule of
// reward/components.ts), and `relative` records what was asked and answered.
import type { RolloutInput, ScoreRecord } from '../core/record.ts';
import { addUsage, emptyUsage, type Usage } from '../core/usage.ts';
import { tallyJudgeInput } from '../judge/judge-input-tally.ts';
import type { PairsMode, PairwiseJudge } from '../judge/pairwise.ts';
import { type Comparison, fitBradleyTerry } from '../reward/bradley-terry.ts';
import { rewardComponents } from '../reward/components.ts';
import { relativeIntervals } from '../reward/relative-interval.ts';
import { DEFAULT_INTERVAL_LEVEL } from '../reward/result.ts';
import { canonicalOrder, judgeableGroups } from './judgeable-groups.ts';

/** What a rollout brings to a comparison: its picture and what its judge was asked about. */
export interface RelativeEntry {
  record: ScoreRecord;
  png: Buffer | null;
  /** The prompt text and criteria a judge reads; null when none was found. */
  context: { prompt: string; criteria: string; assets: string | null } | null;
}

export interface RelativeOptions {
  judge: PairwiseJudge;
  pairs: PairsMode;
  /** Level of each relative reward's interval (default 0.9, reward/relative-interval.ts). */
  intervalLevel?: number;
  signal?: AbortSignal;
}

/** Ordered pairs (as positions in a canonical group of n) to ask, each pair in both orders. */
export function pairPlan(n: number, pairs: PairsMode): [number, number][] {
  const out: [number, number][] = [];
  const add = (a: number, b: number) => out.push([a, b], [b, a]);
  if (n < 2) return out;
  if (pairs === 'all' || n === 2) {
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) add(a, b);
    return out;
  }
  for (let a = 0; a < n; a++) add(a, (a + 1) % n);
  return out;
}

/** The score of position `a` in an answer about the ordered pair (a shown first, b second). */
function scoreOf(winner: 'first' | 'second' | 'tie'): 0 | 0.5 | 1 {
  return winner === 'first' ? 1 : winner === 'second' ? 0 : 0.5;
}

/**
 * Re-scores the groups of a batch relatively; returns one record per entry, in input order.
 * Never throws for a judge's failure (masked); only a bug throws.
 */
export async function judgeRelative(
  items: readonly RolloutInput[],
  entries: readonly RelativeEntry[],
  opts: RelativeOptions,
): Promise<ScoreRecord[]> {
  const out = entries.map((e) => e.record);
  const groups = judgeableGroups(items, entries);
  await Promise.all(
    groups.map(async (members) => {
      if (members.length < 2) return; // a group of one keeps its absolute score
      const order = canonicalOrder(members, entries);
      const plan = pairPlan(order.length, opts.pairs);
      const ctx = entries[order[0]!]!.context!;
      // Each comparison runs in its own tally, so the template token strings its messages
      // had rewritten are counted on both rollouts it showed (the record's judge_input).
      const tallied = await Promise.all(
        plan.map(([a, b]) =>
          tallyJudgeInput(() =>
            opts.judge.compare({
              prompt: ctx.prompt,
              criteria: ctx.criteria,
              first: entries[order[a]!]!.png!,
              second: entries[order[b]!]!.png!,
              assets: ctx.assets,
              ...(opts.signal ? { signal: opts.signal } : {}),
            }),
          ),
        ),
      );
      const answers = tallied.map((t) => t.value);
      const neutralised = order.map(() => 0);
      plan.forEach(([a, b], k) => {
        neutralised[a]! += tallied[k]!.neutralised;
        neutralised[b]! += tallied[k]!.neutralised;
      });
      const comps: Comparison[] = [];
      const usage: Usage[] = order.map(() => emptyUsage());
      const asked = order.map(() => 0);
      const answered = order.map(() => 0);
      const wins = order.map(() => 0);
      plan.forEach(([a, b], k) => {
        const ans = answers[k]!;
        asked[a]!++;
        asked[b]!++;
        // The cost of a comparison is split evenly between the two pictures it judged.
        const half = halfUsage(ans.usage);
        usage[a] = addUsage(usage[a]!, half);
        usage[b] = addUsage(usage[b]!, half);
        if (!ans.ok) return; // masked: a fault is no verdict, never a loss
        const s = scoreOf(ans.value.winner);
        comps.push({ i: a, j: b, score: s });
        answered[a]!++;
        answered[b]!++;
        wins[a]! += s;
        wins[b]! += 1 - s;
      });
      const fit = fitBradleyTerry(order.length, comps);
      const level = opts.intervalLevel ?? DEFAULT_INTERVAL_LEVEL;
      const iv = relativeIntervals(order.length, comps, fit.scores, level);
      order.forEach((idx, pos) => {
        const rec = entries[idx]!.record;
        const relative = {
          judging: 'pairwise' as const,
          pairs: opts.pairs,
          group_size: order.length,
          comparisons: asked[pos]!,
          answered: answered[pos]!,
          masked: asked[pos]! - answered[pos]!,
          wins: wins[pos]!,
          strength: fit.theta[pos]!,
          absolute_reward: rec.reward,
          fallback: answered[pos] === 0,
        };
        const usageAll = addUsage(rec.usage, usage[pos]!);
        const n = (rec.judge_input?.neutralised ?? 0) + neutralised[pos]!;
        const input = n > 0 ? { judge_input: { neutralised: n } } : {};
        if (answered[pos] === 0) {
          // Every comparison of this rollout faulted: its absolute score stands.
          out[idx] = { ...rec, ...input, usage: usageAll, relative };
          return;
        }
        const reward = fit.scores[pos]!;
        // The absolute record's interval (and calibration) described the absolute reward.
        const { interval: _i, interval_level: _l, interval_calibrated: _c, ...absolute } = rec;
        out[idx] = {
          ...absolute,
          ...input,
          ...(iv.method === 'pair-bootstrap'
            ? { interval: iv.intervals[pos]!, interval_level: level }
            : {}),
          reward,
          components: rewardComponents(rec.reward_kind, rec.tree, reward),
          usage: usageAll,
          cached: rec.cached && answers.every((x) => x.ok && x.cached),
          relative: {
            ...relative,
            interval_method: iv.method,
            ...(iv.method === 'pair-bootstrap'
              ? { interval_resamples: iv.resamples }
              : { interval_note: iv.note }),
          },
        };
      });
    }),
  );
  return out;
}

function halfUsage(u: Usage): Usage {
  const out = { ...u } as Record<string, unknown>;
  for (const [k, v] of Object.entries(u)) if (typeof v === 'number') out[k] = v / 2;
  return out as Usage;
}
