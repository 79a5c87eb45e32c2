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
}

export function createProxyMetrics(inFlight: () => number): ProxyMetrics {
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
  return {
    registry,
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
