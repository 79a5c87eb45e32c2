// Runs the judge proxy on a port and stops it the way its clients need: on close, new calls
// get 503 `draining` (so a replica's client retries elsewhere) while every upstream call in
// flight — including those whose clients are gone — runs to its end and is kept; then the
// port closes and the shared store and budget are let go.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Logger } from 'pino';
import type { CallGate } from '../models/shared-budget.ts';
import { ServerConfigError } from '../server/config-error.ts';
import { checkExposure } from '../server/exposure.ts';
import { createAnswerStore } from './answer-store.ts';
import { createProxyApp, type Flight } from './app.ts';
import { createCoalescer } from './coalesce.ts';
import { createProxyGate } from './gate.ts';
import { createProxyMetrics, type ProxyMetrics } from './metrics.ts';

export interface ProxyOptions {
  upstream: string;
  host?: string;
  port?: number;
  /** redis://… or a SQLite path: where answers are also kept, shared. */
  cache?: string;
  concurrency?: number;
  rpm?: number;
  tpm?: number;
  ttlMs?: number;
  timeoutMs?: number;
  maxBodyBytes?: number;
  /** Answers kept in memory at most. */
  memoryEntries?: number;
  token?: string;
  upstreamKey?: string;
  insecure?: boolean;
  /** A gate to use instead of the one the options describe (tests). */
  gate?: CallGate;
  logger?: Logger;
}

export interface RunningProxy {
  url: string;
  port: number;
  metrics: ProxyMetrics;
  /** Upstream calls in flight now. */
  readonly inFlight: number;
  /** Drain (503 to new calls, in-flight calls finished), stop listening, let go. */
  close(reason?: string): Promise<void>;
}

export async function startProxy(o: ProxyOptions): Promise<RunningProxy> {
  const host = o.host ?? '127.0.0.1';
  checkExposure({
    host,
    token: o.token,
    insecure: o.insecure,
    risk: 'anyone who can reach it could use the judge through it',
  });
  const coalescer = createCoalescer<Flight>();
  const metrics = createProxyMetrics(() => coalescer.size);
  const store = createAnswerStore({
    ttlMs: o.ttlMs ?? 600_000,
    ...(o.memoryEntries ? { memoryEntries: o.memoryEntries } : {}),
    ...(o.cache ? { shared: o.cache } : {}),
    onFault: (op, err) => o.logger?.warn({ op, err: String(err) }, 'shared answer store fault'),
  });
  const gate =
    o.gate ??
    createProxyGate({
      upstream: o.upstream,
      concurrency: o.concurrency ?? 32,
      rpm: o.rpm ?? 0,
      tpm: o.tpm ?? 0,
      ...(o.cache ? { cache: o.cache } : {}),
    });
  let draining = false;
  let active = 0;
  let idle: (() => void) | undefined;
  const app = createProxyApp({
    upstream: o.upstream,
    timeoutMs: o.timeoutMs ?? 120_000,
    maxBodyBytes: o.maxBodyBytes ?? 64 * 1024 * 1024,
    store,
    coalescer,
    gate,
    metrics,
    ...(o.token !== undefined ? { token: o.token } : {}),
    ...(o.upstreamKey ? { upstreamKey: o.upstreamKey } : {}),
    draining: () => draining,
    track: (d) => {
      active += d;
      if (active === 0) idle?.();
    },
    ...(o.logger ? { log: o.logger } : {}),
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port: o.port ?? 8790 }, () => resolve(s));
    s.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new ServerConfigError(
          err.code === 'EADDRINUSE' ? 'port_in_use' : 'listen_failed',
          `cannot listen on ${host}:${o.port ?? 8790}: ${err.message}`,
        ),
      ),
    );
  }).catch(async (err) => {
    await store.close();
    if (!o.gate) await gate.close();
    throw err;
  });
  // A judge call may take minutes; the client sets its own timeout.
  if ('requestTimeout' in server) server.requestTimeout = 0;
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  const close = (reason = 'close') => {
    closing ??= (async () => {
      draining = true;
      o.logger?.info({ reason, in_flight: coalescer.size, requests: active }, 'draining');
      // Requests still answered by this proxy, then calls whose clients have gone.
      if (active > 0) await new Promise<void>((r) => (idle = r));
      await coalescer.idle();
      const stopped = new Promise<void>((r) => server.close(() => r()));
      if ('closeIdleConnections' in server) server.closeIdleConnections();
      setTimeout(() => {
        if ('closeAllConnections' in server) server.closeAllConnections();
      }, 1000).unref();
      await stopped;
      await store.close();
      if (!o.gate) await gate.close();
      o.logger?.info({ reason }, 'closed');
    })();
    return closing;
  };
  return {
    url,
    port,
    metrics,
    get inFlight() {
      return coalescer.size;
    },
    close,
  };
}
