// Deadlines: a GRPO step waits for its slowest reward, so a request is answered by its
// deadline whatever one judge call does. Each rollout of a batch is scored on its own
// (through the same pipeline limit, so nothing else changes); when the deadline passes, every
// rollout not done yet is answered as a grader fault with reason `deadline` — left out of its
// group's baseline like any fault, in every trainer shape. The work it was waiting on is NOT
// cancelled: it runs on under its own timeouts and its judge answer lands in the answer cache,
// so the trainer's next request for the same picture is answered at once.
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
 * Scores `items` with `scorer`, answering by `deadlineMs`: rollouts done by then keep their
 * records, the rest get deadlineRecord. A scorer configuration error (a throw before the
 * deadline) rejects as before; whatever the late work throws afterwards is swallowed.
 */
export function scoreByDeadline(
  scorer: Pick<RolloutScorer, 'scoreBatch'>,
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
    const timer = setTimeout(() => {
      if (settled) return;
      const out = items.map((it, i) => {
        const r = done[i];
        if (r) return r;
        o.onLate?.();
        return deadlineRecord(it, kinds, deadlineMs);
      });
      finish(out);
    }, deadlineMs);
    items.forEach((it, i) => {
      scorer.scoreBatch([it], opts).then(
        ([r]) => {
          if (settled) {
            o.onLateFinished?.(r?.status !== 'grader_error');
            return;
          }
          done[i] = r;
          if (--left === 0) finish(done as ScoreRecord[]);
        },
        (err: unknown) => {
          if (settled) {
            o.onLateFinished?.(false);
            return;
          }
          settled = true;
          clearTimeout(timer);
          reject(err);
        },
      );
    });
    if (items.length === 0) finish([]);
  });
}

/** `scorer` whose scoreBatch answers by `deadlineMs` (the gathered per-sample routes). */
export function withDeadline(
  scorer: Pick<RolloutScorer, 'scoreBatch'>,
  deadlineMs: number,
  o: DeadlineOptions = {},
): Pick<RolloutScorer, 'scoreBatch'> {
  return {
    scoreBatch: (items, opts = {}) => scoreByDeadline(scorer, items, opts, deadlineMs, o),
  };
}
