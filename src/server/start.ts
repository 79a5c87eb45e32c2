// Runs the reward app on a real port with @hono/node-server, and shuts it down the way a
// training job needs: stop taking work (503 `draining`, /readyz too), let every admitted
// rollout finish and be answered, then stop listening and close the scorer (render workers, cache store) — never drop an answer half-way.

import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Logger } from 'pino';
import { createAdmission, resolveLimits } from './admission.ts';
import { createServer, type ServerOptions } from './app.ts';
import { ServerConfigError } from './config-error.ts';
import { checkExposure } from './exposure.ts';
import { createServerMetrics, type ServerMetrics } from './metrics.ts';
import { attachOpenEnvSocket } from './openenv/ws.ts';

/** createServer's options plus where to listen and how long a shutdown may drain. */
export interface StartOptions extends ServerOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Longest wait for in-flight requests on shutdown before closing anyway, ms. */
  drainTimeoutMs?: number;
  /** Serve a non-loopback host without a token anyway (refused otherwise). */
  insecure?: boolean;
}

/** Why listen() failed, as one line an operator can act on. */
function listenError(err: NodeJS.ErrnoException, host: string, port: number): ServerConfigError {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (err.code === 'EADDRINUSE') {
    return new ServerConfigError(
      'port_in_use',
      `port ${port} is already in use on ${host} (another rubrica serve?); stop it or pick another --port (0 = any free port)`,
    );
  }
  if (err.code === 'EACCES') {
    return new ServerConfigError(
      'listen_failed',
      `not allowed to listen on ${where} (ports below 1024 need privileges); pick another --port`,
    );
  }
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') {
    return new ServerConfigError(
      'listen_failed',
      `cannot listen on ${where}: no such local address (--host)`,
    );
  }
  return new ServerConfigError('listen_failed', `cannot listen on ${where}: ${err.message}`, {
    cause: err,
  });
}

/** A listening server: its URL and metrics, and close() to drain and stop. */
export interface RunningServer {
  url: string;
  host: string;
  port: number;
  metrics: ServerMetrics;
  /** Drain in-flight requests, stop listening, close the scorer. Safe to call twice. */
  close(reason?: string): Promise<void>;
}

/**
 * Starts the reward service on `host:port` (default 127.0.0.1:8787). Refuses with
 * ServerConfigError a non-loopback host without a token (unless `insecure`) and a port that
 * cannot be listened on. close() drains in-flight requests, stops, and closes the scorer.
 * @example
 * ```ts
 * const server = await startServer({ scorer, port: 8787, token: process.env.RUBRICA_TOKEN });
 * console.log(server.url); // POST /v1/rewards, /v1/verl, /v1/openrlhf
 * ```
 */
export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const port0 = opts.port ?? 8787;
  checkExposure({ host, token: opts.token, insecure: opts.insecure });
  const limits = resolveLimits(opts.limits);
  const admission = opts.admission ?? createAdmission(limits.maxInFlight);
  const metrics = opts.metrics ?? createServerMetrics();
  const log: Logger | undefined = opts.logger;
  const app = createServer({ ...opts, limits, admission, metrics });

  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port: port0 }, () => resolve(s));
    s.once('error', (err: NodeJS.ErrnoException) => reject(listenError(err, host, port0)));
  });
  // Long batches (a GRPO step of 1,024 rollouts behind a slow judge) must not hit Node's
  // default request timeout (300 s); trainers set their own client timeouts.
  if ('requestTimeout' in server) server.requestTimeout = 0;
  const closeSockets = opts.openenv
    ? attachOpenEnvSocket(server as HttpServer, {
        ...opts.openenv,
        scorer: opts.scorer,
        admission,
        maxSessions: limits.maxInFlight,
        token: opts.token,
        log,
      })
    : undefined;
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}`;
  log?.info({ url, limits }, 'rubrica serve listening');

  let closing: Promise<void> | undefined;
  const close = (reason = 'close') => {
    closing ??= (async () => {
      log?.info({ reason, in_flight: admission.inFlight }, 'draining');
      // Still listening while draining: /readyz and new batches answer 503 `draining` at
      // once, so a balancer (nginx retries 503 on the next replica) or a readiness probe
      // takes this replica out, where a closed port would only be refused.
      admission.startDraining();
      const drainTimeout = opts.drainTimeoutMs ?? 10 * 60_000;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        admission.idle().then(() => false),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), drainTimeout);
        }),
      ]);
      clearTimeout(timer);
      if (timedOut) log?.warn({ in_flight: admission.inFlight }, 'drain timed out; closing anyway');
      closeSockets?.();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // Answers are written; idle keep-alive sockets would otherwise hold the server open.
      if ('closeIdleConnections' in server) server.closeIdleConnections();
      setTimeout(() => {
        if ('closeAllConnections' in server) server.closeAllConnections();
      }, 1000).unref();
      await stopped;
      await opts.scorer.close();
      log?.info({ reason }, 'closed');
    })();
    return closing;
  };

  return { url, host, port, metrics, close };
}
