// Prometheus metrics of the reward server (prom-client). Each server owns its own registry,
// so two servers in one process (tests, benches) never mix counts.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ScoreRecord } from '../core/record.ts';
import { cacheFaults } from '../store/redis-cache.ts';

/** The service's Prometheus metrics, in a registry of its own. */
export interface ServerMetrics {
  registry: Registry;
  requests: Counter<'route' | 'status'>;
  requestSeconds: Histogram<'route'>;
  rollouts: Counter<'status' | 'reason'>;
  judgeCalls: Counter;
  cacheHits: Counter;
  renderSeconds: Histogram;
  judgeSeconds: Histogram;
  inFlight: Gauge;
  rejected: Counter<'reason'>;
  /** Rollouts answered as `deadline` faults (serve --deadline-ms, request deadline_ms). */
  deadlineFaults: Counter;
  /** Rollouts answered late whose work then finished in the background (answer cached). */
  lateFinished: Counter<'outcome'>;
  /** Count one scored rollout. */
  observeRecord(record: ScoreRecord): void;
}

/**
 * A fresh registry with the service's metrics (and Node's defaults unless turned off), so two
 * servers in one process never mix counts.
 */
export function createServerMetrics(opts: { defaultMetrics?: boolean } = {}): ServerMetrics {
  const registry = new Registry();
  if (opts.defaultMetrics !== false)
    collectDefaultMetrics({ register: registry, prefix: 'rubrica_' });
  const registers = [registry];
  const requests = new Counter({
    name: 'rubrica_http_requests_total',
    help: 'HTTP requests by route and status code',
    labelNames: ['route', 'status'] as const,
    registers,
  });
  const requestSeconds = new Histogram({
    name: 'rubrica_http_request_seconds',
    help: 'HTTP request wall time by route',
    labelNames: ['route'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers,
  });
  const rollouts = new Counter({
    name: 'rubrica_rollouts_total',
    help: 'Scored rollouts by status and reason (reason "none" when ok)',
    labelNames: ['status', 'reason'] as const,
    registers,
  });
  const judgeCalls = new Counter({
    name: 'rubrica_judge_calls_total',
    help: 'Judge model calls made while scoring rollouts',
    registers,
  });
  const cacheHits = new Counter({
    name: 'rubrica_cache_hits_total',
    help: 'Rollouts whose judge answer came from the cache',
    registers,
  });
  // Shared-cache faults degraded to asking the judge (process-wide: the cache is per process).
  new Counter({
    name: 'rubrica_cache_faults_total',
    help: 'Shared (Redis) answer cache reads and writes that failed and were degraded to asking the judge',
    labelNames: ['op'] as const,
    registers,
    collect() {
      const f = cacheFaults();
      this.reset();
      this.inc({ op: 'read' }, f.read);
      this.inc({ op: 'write' }, f.write);
    },
  });
  const renderSeconds = new Histogram({
    name: 'rubrica_render_seconds',
    help: 'Render wall time per rollout',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const judgeSeconds = new Histogram({
    name: 'rubrica_judge_seconds',
    help: 'Judge latency per rollout that called the judge (sum over its calls)',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers,
  });
  const inFlight = new Gauge({
    name: 'rubrica_in_flight_rollouts',
    help: 'Rollouts admitted and not yet answered',
    registers,
  });
  const rejected = new Counter({
    name: 'rubrica_rejected_requests_total',
    help: 'Requests refused before scoring, by reason',
    labelNames: ['reason'] as const,
    registers,
  });
  const deadlineFaults = new Counter({
    name: 'rubrica_deadline_faults_total',
    help: 'Rollouts not scored by their request deadline, answered as grader faults (reason deadline)',
    registers,
  });
  const lateFinished = new Counter({
    name: 'rubrica_deadline_late_finished_total',
    help: 'Rollouts answered as deadline faults whose scoring then finished in the background (ok: its answer is cached for the next request)',
    labelNames: ['outcome'] as const,
    registers,
  });
  return {
    registry,
    deadlineFaults,
    lateFinished,
    requests,
    requestSeconds,
    rollouts,
    judgeCalls,
    cacheHits,
    renderSeconds,
    judgeSeconds,
    inFlight,
    rejected,
    observeRecord(record) {
      rollouts.inc({ status: record.status, reason: record.reason ?? 'none' });
      if (record.usage.calls > 0) {
        judgeCalls.inc(record.usage.calls);
        judgeSeconds.observe(record.usage.latencyMs / 1000);
      }
      if (record.cached) cacheHits.inc();
      if (record.render_ms !== null) renderSeconds.observe(record.render_ms / 1000);
    },
  };
}
