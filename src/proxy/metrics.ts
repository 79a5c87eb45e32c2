// The proxy's Prometheus series, in a registry of its own: what reached the judge, what was
// saved (joins of a call in flight, cache hits), what is in flight, and what failed upstream.
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';

export interface ProxyMetrics {
  registry: Registry;
  /** Upstream calls made, by path tail (streams included). */
  upstreamCalls: Counter<'path'>;
  /** Requests answered by joining an identical call in flight. */
  coalesced: Counter;
  /** Requests answered from the kept answers, by store (memory, shared). */
  cacheHits: Counter<'store'>;
  /** Upstream answers that were not 200, by status (502/504: unreachable / timed out). */
  upstreamErrors: Counter<'status'>;
  /** Requests refused by the proxy itself, by code. */
  rejected: Counter<'code'>;
  /** Judge 200s that were not a whole, good answer of their route: answered, not kept. */
  notKept: Counter;
  /** Connections still open when the drain deadline passed, closed by force. */
  drainClosed: Counter;
}

/** What the proxy holds now, read at each scrape (issue 42: every bound shown). */
export interface ProxyGauges {
  /** Upstream calls waiting for a slot. */
  queueWaiting(): number;
  /** Upstream calls holding a slot in this process (streams for their whole life). */
  upstreamRunning(): number;
  /** Request-body bytes being read now (the --max-body-total-mb budget). */
  bodyBytes(): number;
  /** Bytes of answers kept in memory (the --cache-mb bound). */
  cacheBytes(): number;
  /** Each configured bound by name, in its unit (bytes, seconds, calls). */
  limits: Record<string, number>;
}

export function createProxyMetrics(inFlight: () => number, g?: ProxyGauges): ProxyMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'rubrica_proxy_' });
  const registers = [registry];
  new Gauge({
    name: 'rubrica_proxy_upstream_in_flight',
    help: 'Upstream calls in flight now (a call outlives the client that asked for it)',
    registers,
    collect() {
      this.set(inFlight());
    },
  });
  if (g) {
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    gauge('rubrica_proxy_queue_waiting', 'Upstream calls waiting for a slot now', g.queueWaiting);
    gauge(
      'rubrica_proxy_upstream_running',
      'Upstream calls holding a slot in this process now (a stream for its whole life)',
      g.upstreamRunning,
    );
    gauge('rubrica_proxy_body_bytes', 'Request-body bytes being read now', g.bodyBytes);
    gauge('rubrica_proxy_cache_bytes', 'Bytes of answers kept in memory now', g.cacheBytes);
    const limits = new Gauge({
      name: 'rubrica_proxy_limit',
      help: 'Each configured bound (flag) by name, in its unit',
      labelNames: ['bound'] as const,
      registers,
    });
    for (const [bound, v] of Object.entries(g.limits)) limits.set({ bound }, v);
  }
  return {
    registry,
    notKept: new Counter({
      name: 'rubrica_proxy_not_kept_total',
      help: 'Judge 200 answers not kept: cut short, an error body, or not the answer of the route',
      registers,
    }),
    drainClosed: new Counter({
      name: 'rubrica_proxy_drain_closed_total',
      help: 'Connections still open at the --drain-s deadline, closed by force',
      registers,
    }),
    upstreamCalls: new Counter({
      name: 'rubrica_proxy_upstream_calls_total',
      help: 'Calls made to the upstream judge, by path',
      labelNames: ['path'] as const,
      registers,
    }),
    coalesced: new Counter({
      name: 'rubrica_proxy_coalesced_total',
      help: 'Requests answered by joining an identical upstream call in flight',
      registers,
    }),
    cacheHits: new Counter({
      name: 'rubrica_proxy_cache_hits_total',
      help: 'Requests answered from kept answers, by store (memory, shared)',
      labelNames: ['store'] as const,
      registers,
    }),
    upstreamErrors: new Counter({
      name: 'rubrica_proxy_upstream_errors_total',
      help: 'Upstream answers other than 200, by status (502 unreachable, 504 timed out)',
      labelNames: ['status'] as const,
      registers,
    }),
    rejected: new Counter({
      name: 'rubrica_proxy_rejected_total',
      help: 'Requests the proxy refused itself, by code',
      labelNames: ['code'] as const,
      registers,
    }),
  };
}
