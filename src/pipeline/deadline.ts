// Deadlines: a GRPO step waits for its slowest reward, so a request is answered by its
// deadline whatever one judge call does. Each rollout of a batch is scored on its own
// (through the same pipeline limit, so nothing else changes); when the deadline passes, every
// rollout not done yet is answered as a grader fault with reason `deadline` — left out of its
// group's baseline like any fault, in every trainer shape. The work it was waiting on is NOT
// cancelled: it runs on under its own timeouts and its judge answer lands in the answer cache,
// so the trainer's next request for the same picture is answered at once.
import { groupKey } from '../core/group-key.ts';
import type { RewardKind, RolloutInput, ScoreRecord } from '../core/record.ts';
import { reasonResult } from '../reward/result.ts';
import { assembleRecord } from './record.ts';
import { rewardList } from './score.ts';
import type { RolloutScorer, ScoreBatchOptions } from './types.ts';

/** What the deadline reports while it works (the server's metrics). */
export interface DeadlineEvents {
  /** A rollout was answered as a `deadline` fault. */
  onLate?: () => void;
  /** A rollout answered late has finished in the background (its answer is cached). */
  onLateFinished?: (ok: boolean) => void;
}

export interface DeadlineOptions extends DeadlineEvents {
  /** The rewards a request gets when it names none (the scorer's defaults). */
  defaultRewards?: readonly RewardKind[];
  /**
   * performance.now() when the deadline's clock started (serve: the request's arrival);
   * default now. The time already spent is taken off the deadline.
   */
  startedAt?: number;
}

/** The record of a rollout not scored by its deadline: a grader fault, never a zero. */
export function deadlineRecord(
  rollout: RolloutInput,
  kinds: readonly RewardKind[],
  deadlineMs: number,
): ScoreRecord {
  const msg = `not scored within the ${deadlineMs} ms deadline; the work runs on and its answer is cached`;
  const results = kinds.map((k) => reasonResult(k, 'deadline', msg));
  return assembleRecord(rollout, rollout.prompt_id ?? null, null, results);
}

/**
 * The units a batch is scored in under a deadline, as lists of item indices. Absolute
 * judging scores every rollout alone, so one slow rollout costs only itself. Relative
 * judging (pairwise, group) compares a GRPO group's pictures with each other: a group is one
 * unit, scored together and answered together — scoring its rollouts one by one would make
 * every group a group of one and silently fall back to absolute scores.
 */
export function deadlineUnits(items: readonly RolloutInput[], relative: boolean): number[][] {
  if (!relative) return items.map((_, i) => [i]);
  const groups = new Map<string, number[]>();
  items.forEach((it, i) => {
    const key = groupKey(it);
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  });
  return [...groups.values()];
}

/**
 * Scores `items` with `scorer`, answering by `deadlineMs`: rollouts done by then keep their
 * records, the rest get deadlineRecord. Under relative judging a GRPO group is one unit
 * (deadlineUnits). A scorer configuration error (a throw before the deadline) rejects as
 * before; whatever the late work throws afterwards is swallowed.
 */
export function scoreByDeadline(
  scorer: Pick<RolloutScorer, 'scoreBatch' | 'judgingFor'>,
  items: RolloutInput[],
  opts: ScoreBatchOptions,
  deadlineMs: number,
  o: DeadlineOptions = {},
): Promise<ScoreRecord[]> {
  // Resolved before any work starts so a bad reward name is still a 400, not a fault.
  const kinds = rewardList(opts.reward, o.defaultRewards ?? ['ruler']);
  const done: Array<ScoreRecord | undefined> = new Array(items.length);
  return new Promise<ScoreRecord[]>((resolve, reject) => {
    let settled = false;
    let left = items.length;
    const finish = (records: ScoreRecord[]) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(records);
    };
    // The clock may have started before this call (serve: at the request's arrival).
    const since = o.startedAt ?? performance.now();
    const wait = Math.max(0, deadlineMs - (performance.now() - since));
    const timer = setTimeout(() => {
      if (settled) return;
      const out = items.map((it, i) => {
        const r = done[i];
        if (r) return r;
        o.onLate?.();
        return deadlineRecord(it, kinds, deadlineMs);
      });
      finish(out);
    }, wait);
    const relative = (scorer.judgingFor?.(opts) ?? opts.judging ?? 'absolute') !== 'absolute';
    for (const unit of deadlineUnits(items, relative)) {
      scorer
        .scoreBatch(
          unit.map((i) => items[i]!),
          opts,
        )
        .then(
          (records) => {
            if (settled) {
              for (const r of records) o.onLateFinished?.(r?.status !== 'grader_error');
              return;
            }
            unit.forEach((i, k) => {
              done[i] = records[k];
            });
            left -= unit.length;
            if (left === 0) finish(done as ScoreRecord[]);
          },
          (err: unknown) => {
            if (settled) {
              for (const _ of unit) o.onLateFinished?.(false);
              return;
            }
            settled = true;
            clearTimeout(timer);
            reject(err);
          },
        );
    }
    if (items.length === 0) finish([]);
  });
}

/** `scorer` whose scoreBatch answers by `deadlineMs` (the gathered per-sample routes). */
export function withDeadline(
  scorer: Pick<RolloutScorer, 'scoreBatch' | 'judgingFor'>,
  deadlineMs: number,
  o: DeadlineOptions = {},
): Pick<RolloutScorer, 'scoreBatch' | 'judgingFor'> {
  return {
    scoreBatch: (items, opts = {}) => scoreByDeadline(scorer, items, opts, deadlineMs, o),
    ...(scorer.judgingFor ? { judgingFor: scorer.judgingFor } : {}),
  };
}
