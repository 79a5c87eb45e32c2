// One admitted, metered call of the scorer for a route: refuse too many items (400) or a
// full server (503 + Retry-After), score with the client's disconnect as the abort signal,
// map a scorer configuration error to 400, count results, always give the slots back.
import type { Context } from 'hono';
import type { Logger } from 'pino';
import { errorBody } from '../core/error-body.ts';
import type { ScoreRecord } from '../core/record.ts';
import type { StepHealth } from '../monitors/monitor.ts';
import { type DeadlineOptions, scoreByDeadline } from '../pipeline/deadline.ts';
import { ScorerConfigError } from '../pipeline/score.ts';
import type { RolloutInput, RolloutScorer, ScoreBatchOptions } from '../pipeline/types.ts';
import type { Admission, ServerLimits } from './admission.ts';
import { arrivedAt } from './arrival.ts';
import { releaseBodyBudget } from './body-limit.ts';
import type { Gatherer } from './gather.ts';
import { itemBoundsProblem } from './item-bounds.ts';
import type { ServerMetrics } from './metrics.ts';

export type ScoreOutcome =
  | {
      ok: true;
      records: ScoreRecord[];
      health: StepHealth | null;
      /** The whole batch the records were scored in (this request's alone, or a gathered one). */
      batch: { items: RolloutInput[]; records: ScoreRecord[] };
    }
  | { ok: false; response: Response };

/** A route's scoring options: the pipeline's, and whether to gather (per-sample routes). */
export interface RouteScoreOptions extends ScoreBatchOptions {
  /** Score together with the requests that arrive within the gather window (gather.ts). */
  gather?: boolean;
  /** This request's deadline in ms (native route's `deadline_ms`); else the server's. */
  deadlineMs?: number;
}

export type ScoreCall = (
  c: Context,
  items: RolloutInput[],
  opts: RouteScoreOptions,
) => Promise<ScoreOutcome>;

export interface ScoreCallDeps {
  scorer: RolloutScorer;
  limits: ServerLimits;
  admission: Admission;
  metrics: ServerMetrics;
  log?: Logger | undefined;
  /** The reward-health monitor: one step per scored request (src/server/health.ts). */
  health?:
    | ((items: readonly RolloutInput[], records: readonly ScoreRecord[]) => StepHealth)
    | undefined;
  /** Batches per-sample requests that arrive together; without it every request is alone. */
  gatherer?: Gatherer | undefined;
  /**
   * serve --deadline-ms: rollouts not scored by then are answered as `deadline` faults
   * (deadline.ts). The gatherer is handed its own deadline-bound scorer (app.ts).
   */
  deadlineMs?: number | undefined;
  /** Default rewards and event hooks for deadline records. */
  deadline?: DeadlineOptions | undefined;
}

/**
 * 400 too_many_items / item_too_large, 503 busy|draining, or null when the batch was
 * admitted.
 */
function refuse(c: Context, items: readonly RolloutInput[], d: ScoreCallDeps): Response | null {
  const { limits, admission, metrics } = d;
  const n = items.length;
  if (n > limits.maxItemsPerRequest) {
    metrics.rejected.inc({ reason: 'too_many_items' });
    const msg = `${n} rollouts in one request; the limit is ${limits.maxItemsPerRequest}`;
    return c.json(errorBody('too_many_items', msg), 400);
  }
  const tooLarge = itemBoundsProblem(items);
  if (tooLarge) {
    metrics.rejected.inc({ reason: 'item_too_large' });
    return c.json(errorBody('item_too_large', tooLarge), 400);
  }
  if (admission.tryAcquire(n)) return null;
  const reason = admission.draining ? 'draining' : 'busy';
  metrics.rejected.inc({ reason });
  c.header('Retry-After', String(limits.retryAfterSeconds));
  const msg = admission.draining
    ? 'server is shutting down'
    : `server busy: ${admission.inFlight} of ${admission.max} rollouts in flight; retry later`;
  return c.json(errorBody(reason, msg), 503);
}

export function createScoreCall(d: ScoreCallDeps): ScoreCall {
  const { scorer, admission, metrics, log, health, gatherer } = d;
  return async (c, items, routeOpts) => {
    const { gather, deadlineMs: own, ...scoreOpts } = routeOpts;
    const deadlineMs = own ?? d.deadlineMs;
    // The route has its parsed body: its bytes no longer count against the read budget.
    releaseBodyBudget(c.req.raw);
    const refused = refuse(c, items, d);
    if (refused) return { ok: false, response: refused };
    metrics.inFlight.inc(items.length);
    const t0 = performance.now();
    try {
      let records: ScoreRecord[];
      let batch: { items: RolloutInput[]; records: ScoreRecord[] };
      try {
        if (gather && gatherer) {
          const g = await gatherer.score(items, scoreOpts);
          records = g.records;
          batch = { items: g.batchItems, records: g.batchRecords };
        } else {
          const o = { ...scoreOpts, signal: c.req.raw.signal };
          records = deadlineMs
            ? await scoreByDeadline(scorer, items, o, deadlineMs, {
                ...d.deadline,
                startedAt: arrivedAt(c) ?? t0,
              })
            : await scorer.scoreBatch(items, o);
          batch = { items, records };
        }
      } catch (err) {
        // A request asking for something this server cannot do (e.g. reward "hybrid"
        // without a hybrid rewarder) is the caller's error, not the server's.
        if (!(err instanceof ScorerConfigError)) throw err;
        return { ok: false, response: c.json(errorBody(err.code, err.message), 400) };
      }
      if (records.length !== items.length) {
        throw new Error(`scorer returned ${records.length} records for ${items.length} rollouts`);
      }
      for (const r of records) metrics.observeRecord(r);
      const unscoreable = records.filter((r) => r.status !== 'ok').length;
      const ms = Math.round(performance.now() - t0);
      log?.info({ route: c.req.path, items: items.length, unscoreable, ms }, 'scored');
      return { ok: true, records, health: health ? health(items, records) : null, batch };
    } finally {
      metrics.inFlight.dec(items.length);
      admission.release(items.length);
    }
  };
}
