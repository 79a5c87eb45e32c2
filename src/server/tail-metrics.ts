// /metrics for the judge's tail controls (issue 38): the retry budget's retries, refusals and
// room, read from the judge client when Prometheus scrapes. Deadline faults are counted by the
// server itself (metrics.ts); these figures live in the model client, below this room.
import { Gauge, type Registry } from 'prom-client';
import type { HedgeStats } from '../models/hedge.ts';
import type { RetryBudgetStats } from '../models/retry-budget.ts';

/** Where the figures come from: the judge client's retryStats (null: no budget). */
export type RetryStatsSource = () => RetryBudgetStats | null;

/** Registers the judge retry-budget gauges on `registry` once (a second call is a no-op). */
export function registerRetryMetrics(registry: Registry, source: RetryStatsSource): void {
  if (registry.getSingleMetric('rubrica_judge_retries_total')) return;
  const registers = [registry];
  const gauge = (name: string, help: string, pick: (s: RetryBudgetStats) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const s = source();
        if (s) this.set(pick(s));
      },
    });
  // Totals are gauges read from the client (prom-client counters cannot be set); they only grow.
  gauge(
    'rubrica_judge_calls_started_total',
    'Judge calls started (first attempts)',
    (s) => s.calls,
  );
  gauge(
    'rubrica_judge_retries_total',
    'Judge retries made (attempts after the first)',
    (s) => s.retries,
  );
  gauge(
    'rubrica_judge_retries_refused_total',
    'Retries the retry budget refused: those failures were final at once (grader faults)',
    (s) => s.refused,
  );
  gauge(
    'rubrica_judge_retry_budget_window_retries',
    'Retries made in the retry budget’s current sliding window',
    (s) => s.windowRetries,
  );
  gauge(
    'rubrica_judge_retry_budget_allowed',
    'Retries the current window allows: max(floor, ratio × calls in the window)',
    (s) => s.allowed,
  );
  gauge('rubrica_judge_retry_budget_ratio', 'The retry budget’s share of calls', (s) => s.ratio);
}

/** Registers the judge hedge gauges on `registry` once (a second call is a no-op). */
export function registerHedgeMetrics(registry: Registry, source: () => HedgeStats | null): void {
  if (registry.getSingleMetric('rubrica_judge_hedges_total')) return;
  const registers = [registry];
  const gauge = (name: string, help: string, pick: (s: HedgeStats) => number | null) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const s = source();
        const v = s ? pick(s) : null;
        if (v !== null) this.set(v);
      },
    });
  gauge(
    'rubrica_judge_requests_total',
    'Judge HTTP requests (attempts), before hedging',
    (s) => s.requests,
  );
  gauge('rubrica_judge_hedges_total', 'Second (hedged) judge requests sent', (s) => s.hedges);
  gauge(
    'rubrica_judge_hedge_wins_total',
    'Hedged requests whose answer came first',
    (s) => s.hedgeWins,
  );
  gauge(
    'rubrica_judge_hedge_dropped_total',
    'Judge requests aborted because the other of a hedged pair answered first',
    (s) => s.dropped,
  );
  gauge(
    'rubrica_judge_hedge_after_ms',
    'The delay hedge auto uses now (recent p95), ms',
    (s) => s.autoAfterMs,
  );
}
