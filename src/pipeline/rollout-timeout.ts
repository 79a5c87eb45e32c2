// `--rollout-timeout-ms` for every batch command (score, eval, probe, rescore): the batch
// twin of serve's `--deadline-ms`. A rollout not scored by then is a grader fault with reason
// `deadline` — redone by the next run, never a 0 — while the work it waited on runs on under
// its own timeouts. close() waits for that late work, so its judge answers reach the cache and
// the next run gets them at once — but for one more timeout at most: a judge call that hangs
// must not hold the command's exit for the judge's own timeout × retries (the wait has a
// bound too); what is still running then is dropped and simply redone by the next run.
// Relative judging bounds a GRPO group as one unit (pipeline/deadline.ts).
import type { RewardKind, RolloutInput } from '../core/record.ts';
import { deadlineRecord, scoreByDeadline } from './deadline.ts';
import { rewardList } from './score.ts';
import type { InspectingScorer, ScoreBatchOptions, ScoredRollout } from './types.ts';

/** The scorer's own default rewards, for the records of late rollouts that name none. */
export interface RolloutTimeoutOptions {
  defaultRewards?: readonly RewardKind[];
}

/**
 * `scorer` whose every rollout is answered by `timeoutMs`; close() waits for the late work
 * (so its answers are cached), `timeoutMs` at most, before closing `scorer`.
 */
export function withRolloutTimeout<S extends InspectingScorer>(
  scorer: S,
  timeoutMs: number,
  o: RolloutTimeoutOptions = {},
): InspectingScorer {
  const late = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    late.add(p);
    const forget = () => late.delete(p);
    p.then(forget, forget);
    return p;
  };
  const defaults = o.defaultRewards ? { defaultRewards: o.defaultRewards } : {};
  const tracked = {
    scoreBatch: (items: RolloutInput[], opts?: ScoreBatchOptions) =>
      track(scorer.scoreBatch(items, opts)),
    judgingFor: (opts?: ScoreBatchOptions) => scorer.judgingFor(opts),
  };
  return {
    judgingFor: tracked.judgingFor,
    scoreBatch: (items, opts = {}) => scoreByDeadline(tracked, items, opts, timeoutMs, defaults),
    scoreRollout(item, opts = {}) {
      // Resolved before any work starts so a bad reward name still throws as before.
      const kinds = rewardList(opts.reward, o.defaultRewards ?? ['ruler']);
      const work = track(scorer.scoreRollout(item, opts));
      return new Promise<ScoredRollout>((resolve, reject) => {
        const timer = setTimeout(
          () => resolve({ record: deadlineRecord(item, kinds, timeoutMs), inspection: null }),
          timeoutMs,
        );
        work.then(
          (r) => {
            clearTimeout(timer);
            resolve(r);
          },
          (err: unknown) => {
            clearTimeout(timer);
            reject(err);
          },
        );
      });
    },
    async close() {
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...late]),
        new Promise((r) => {
          grace = setTimeout(r, timeoutMs);
        }),
      ]);
      clearTimeout(grace);
      await scorer.close();
    },
  };
}
