// Runs the judge proxy on a port and stops it the way its clients need: on close, new calls
// get 503 `draining` (so a replica's client retries elsewhere) while every upstream call in
// flight — including those whose clients are gone — runs to its end and is kept; then the
// port closes and the shared store and budget are let go.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Logger } from 'pino';
import type { CallGate } from '../models/shared-budget.ts';
import { createBodyBudget } from '../server/body-limit.ts';
import { ServerConfigError } from '../server/config-error.ts';
import { checkExposure } from '../server/exposure.ts';
import { createAnswerStore } from './answer-store.ts';
import { createProxyApp, type Flight } from './app.ts';
import { createCoalescer } from './coalesce.ts';
import { redactUrl } from './forward.ts';
import { createProxyGate } from './gate.ts';
import { createProxyMetrics, type ProxyMetrics } from './metrics.ts';
import { createQueuedGate } from './queue.ts';

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
  /** Request-body bytes read at once over all requests (default 256 MiB). */
  maxBodyTotalBytes?: number;
  /** A whole request body must arrive within this, ms (default 60 s). */
  bodyTimeoutMs?: number;
  /** Largest upstream answer read (default 64 MiB); beyond it 502 answer_too_large. */
  maxAnswerBytes?: number;
  /** Answers kept in memory at most. */
  memoryEntries?: number;
  /** Bytes of answers kept in memory at most (default 256 MiB). */
  cacheBytes?: number;
  /** Upstream calls waiting for a slot at most (default 1024). */
  maxQueue?: number;
  /** Longest an upstream call waits for a slot, ms (default 60 s). */
  queueTimeoutMs?: number;
  /** Longest a drain waits for open requests and calls before closing them, ms (default 30 s). */
  drainMs?: number;
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
  if (/^[a-z]+:\/\/[^/]*@/i.test(o.upstream)) {
    // fetch refuses a URL with credentials, so such a proxy could never work; and the
    // userinfo would be a secret in every error message and log line.
    throw new ServerConfigError(
      'upstream_credentials',
      `--upstream ${redactUrl(o.upstream)} holds credentials (user:password@); put the judge's key in RUBRICA_JUDGE_API_KEY (with --token) instead`,
    );
  }
  checkExposure({
    host,
    token: o.token,
    insecure: o.insecure,
    risk: 'anyone who can reach it could use the judge through it',
  });
  const coalescer = createCoalescer<Flight>();
  const limits = {
    maxBodyBytes: o.maxBodyBytes ?? 64 * 1024 * 1024,
    maxBodyTotalBytes: o.maxBodyTotalBytes ?? 256 * 1024 * 1024,
    bodyTimeoutMs: o.bodyTimeoutMs ?? 60_000,
    maxAnswerBytes: o.maxAnswerBytes ?? 64 * 1024 * 1024,
    cacheBytes: o.cacheBytes ?? 256 * 1024 * 1024,
    maxQueue: o.maxQueue ?? 1024,
    queueTimeoutMs: o.queueTimeoutMs ?? 60_000,
    drainMs: o.drainMs ?? 30_000,
    concurrency: o.concurrency ?? 32,
  };
  const bodyBudget = createBodyBudget(limits.maxBodyTotalBytes);
  let queue: ReturnType<typeof createQueuedGate> | undefined;
  const store = createAnswerStore({
    ttlMs: o.ttlMs ?? 600_000,
    memoryBytes: limits.cacheBytes,
    ...(o.memoryEntries ? { memoryEntries: o.memoryEntries } : {}),
    ...(o.cache ? { shared: o.cache } : {}),
    onFault: (op, err) => o.logger?.warn({ op, err: String(err) }, 'shared answer store fault'),
  });
  const gate =
    o.gate ??
    createProxyGate({
      upstream: o.upstream,
      concurrency: limits.concurrency,
      rpm: o.rpm ?? 0,
      tpm: o.tpm ?? 0,
      ...(o.cache ? { cache: o.cache } : {}),
    });
  queue = createQueuedGate(gate, { maxQueue: limits.maxQueue, timeoutMs: limits.queueTimeoutMs });
  const metrics = createProxyMetrics(() => coalescer.size, {
    queueWaiting: () => queue?.waiting ?? 0,
    upstreamRunning: () => queue?.running ?? 0,
    bodyBytes: () => bodyBudget.used,
    cacheBytes: () => store.memoryBytes,
    limits: {
      concurrency: limits.concurrency,
      max_queue: limits.maxQueue,
      queue_timeout_seconds: limits.queueTimeoutMs / 1000,
      max_body_bytes: limits.maxBodyBytes,
      max_body_total_bytes: limits.maxBodyTotalBytes,
      body_timeout_seconds: limits.bodyTimeoutMs / 1000,
      max_answer_bytes: limits.maxAnswerBytes,
      cache_bytes: limits.cacheBytes,
      drain_seconds: limits.drainMs / 1000,
      judge_rpm: o.rpm ?? 0,
      judge_tpm: o.tpm ?? 0,
    },
  });
  let draining = false;
  let active = 0;
  let idle: (() => void) | undefined;
  const app = createProxyApp({
    upstream: o.upstream,
    timeoutMs: o.timeoutMs ?? 120_000,
    maxBodyBytes: limits.maxBodyBytes,
    bodyBudget,
    bodyTimeoutMs: limits.bodyTimeoutMs,
    maxAnswerBytes: limits.maxAnswerBytes,
    queue,
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
      // Requests still answered by this proxy, then calls whose clients have gone — for
      // --drain-s at most: a client trickling a body or a judge that never answers must
      // not hold a SIGTERM for ever (issue 42). What is open then is closed and counted.
      let deadline: NodeJS.Timeout | undefined;
      const late = await Promise.race([
        (async () => {
          if (active > 0) await new Promise<void>((r) => (idle = r));
          await coalescer.idle();
          return false;
        })(),
        new Promise<boolean>((r) => {
          deadline = setTimeout(() => r(true), limits.drainMs);
        }),
      ]);
      clearTimeout(deadline);
      const stopped = new Promise<void>((r) => server.close(() => r()));
      if ('closeIdleConnections' in server) server.closeIdleConnections();
      if (late) {
        const open = active + coalescer.size;
        metrics.drainClosed.inc(open);
        o.logger?.warn(
          { reason, requests: active, in_flight: coalescer.size, drain_s: limits.drainMs / 1000 },
          'drain deadline passed; closing what is still open',
        );
        if ('closeAllConnections' in server) server.closeAllConnections();
      } else {
        setTimeout(() => {
          if ('closeAllConnections' in server) server.closeAllConnections();
        }, 1000).unref();
      }
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
