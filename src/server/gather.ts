// Per-sample trainers (OpenRLHF ≥ 0.10, slime's remote RM, NeMo Gym) send one rollout per
// request, but the rollouts of a GRPO group leave the trainer together. The gatherer holds
// each admitted request for a short window (default 20 ms) and scores every request that
// arrived in it as ONE batch, so a group is scored together: group statistics, and the
// imputed score of a grader fault (the mean of its measured group-mates, src/server/groups.ts),
// see the whole group instead of a group of one. Requests with different reward, judge mode or gate
// never share a batch. A batch also closes early once it holds `maxItems` rollouts.
// A batch is scored without an abort signal: a client that hangs up mid-batch does not cancel
// its group-mates' judging (its records are simply not sent).
import type { ScoreRecord } from '../core/record.ts';
import type { RolloutInput, ScoreBatchOptions } from '../pipeline/types.ts';

/** How long a per-sample request waits for company, and the largest gathered batch. */
export interface GatherOptions {
  /** Window in ms from the first request of a batch; 0 scores every request alone. */
  windowMs: number;
  /** A batch is scored at once when it reaches this many rollouts. */
  maxItems: number;
}

/** The gatherer's defaults: a 20 ms window, 512 rollouts at most. */
export const DEFAULT_GATHER: GatherOptions = { windowMs: 20, maxItems: 512 };

/** One request's share of a gathered batch: its own records and the whole batch. */
export interface Gathered {
  records: ScoreRecord[];
  batchItems: RolloutInput[];
  batchRecords: ScoreRecord[];
}

type ScoreFn = (items: RolloutInput[], opts: ScoreBatchOptions) => Promise<ScoreRecord[]>;

interface Pending {
  items: RolloutInput[];
  opts: ScoreBatchOptions;
  parts: Array<{ start: number; n: number; done: (g: Gathered | Error) => void }>;
  timer: NodeJS.Timeout | null;
}

/** Scores requests that arrive together as one batch (see the file comment). */
export interface Gatherer {
  score(items: RolloutInput[], opts: ScoreBatchOptions): Promise<Gathered>;
}

/** A gatherer over `score` (the pipeline's scoreBatch). */
export function createGatherer(score: ScoreFn, opts: GatherOptions = DEFAULT_GATHER): Gatherer {
  const open = new Map<string, Pending>();

  const flush = (key: string, p: Pending) => {
    if (open.get(key) === p) open.delete(key);
    if (p.timer) clearTimeout(p.timer);
    // Items carry ids the pipeline echoes; a gathered batch may repeat ids across requests,
    // so each request's slice is taken by position, never by id.
    score(p.items, p.opts).then(
      (records) => {
        for (const part of p.parts) {
          part.done({
            records: records.slice(part.start, part.start + part.n),
            batchItems: p.items,
            batchRecords: records,
          });
        }
      },
      (err: unknown) => {
        const e = err instanceof Error ? err : new Error(String(err));
        for (const part of p.parts) part.done(e);
      },
    );
  };

  return {
    score(items, scoreOpts) {
      if (opts.windowMs <= 0 || items.length >= opts.maxItems) {
        return score(items, scoreOpts).then((records) => ({
          records,
          batchItems: items,
          batchRecords: records,
        }));
      }
      const key = JSON.stringify([
        scoreOpts.reward ?? null,
        scoreOpts.mode ?? null,
        scoreOpts.gate ?? null,
      ]);
      let p = open.get(key);
      if (p && p.items.length + items.length > opts.maxItems) {
        flush(key, p);
        p = undefined;
      }
      if (!p) {
        const { signal: _own, ...shared } = scoreOpts;
        const fresh: Pending = { items: [], opts: shared, parts: [], timer: null };
        fresh.timer = setTimeout(() => flush(key, fresh), opts.windowMs);
        open.set(key, fresh);
        p = fresh;
      }
      const pending = p;
      return new Promise<Gathered>((resolve, reject) => {
        pending.parts.push({
          start: pending.items.length,
          n: items.length,
          done: (g) => (g instanceof Error ? reject(g) : resolve(g)),
        });
        pending.items.push(...items);
        if (pending.items.length >= opts.maxItems) flush(key, pending);
      });
    },
  };
}
