// The judge proxy as a hono app: /healthz, /readyz, /metrics, and every `…/chat/completions`,
// `…/messages` (POST) and `…/models` (GET) forwarded to the upstream with the same tail.
// A non-streaming POST is answered, in order, from the kept answers in memory, by joining an
// identical call in flight, from the shared store, or by one upstream call under the budget
// — a call that runs to its end whoever is still waiting for it, and whose 200 answer is
// kept. `stream: true` is piped through, neither joined nor kept.
import { createHash, timingSafeEqual } from 'node:crypto';
import { type Context, Hono } from 'hono';
import type { Logger } from 'pino';
import type { CallGate } from '../models/shared-budget.ts';
import { type BodyRefusal, bodyLimits, createBodyBudget } from '../server/body-limit.ts';
import type { AnswerStore } from './answer-store.ts';
import type { Coalescer } from './coalesce.ts';
import {
  forward,
  forwardStream,
  type ProxyErrorCode,
  providerError,
  type UpstreamAnswer,
} from './forward.ts';
import { answerTokens } from './gate.ts';
import { proxyKey } from './key.ts';
import type { ProxyMetrics } from './metrics.ts';

/** A flight's outcome: the answer and where it came from. */
export interface Flight {
  answer: UpstreamAnswer;
  from: 'upstream' | 'shared';
}

export interface ProxyAppOptions {
  upstream: string;
  /** Per upstream attempt, ms. */
  timeoutMs: number;
  maxBodyBytes: number;
  store: AnswerStore;
  coalescer: Coalescer<Flight>;
  gate: CallGate;
  metrics: ProxyMetrics;
  /** Clients must present it (Bearer or x-api-key); the judge then gets `upstreamKey`. */
  token?: string;
  upstreamKey?: string;
  draining: () => boolean;
  /** Requests being handled now (start/end), so a drain can wait for them. */
  track: (delta: 1 | -1) => void;
  log?: Logger;
}

/** The tail the proxy forwards, or undefined for a path it does not serve. */
export function routeTail(method: string, path: string): string | undefined {
  if (method === 'POST') {
    for (const t of ['/chat/completions', '/messages']) if (path.endsWith(t)) return t;
  }
  if (method === 'GET' && path.endsWith('/models')) return '/models';
  return undefined;
}

const REFUSALS: Record<BodyRefusal, { status: number; code: string }> = {
  too_large: { status: 413, code: 'body_too_large' },
  busy: { status: 503, code: 'body_budget' },
  timeout: { status: 408, code: 'body_timeout' },
  gone: { status: 400, code: 'client_closed' },
};

const send = (a: UpstreamAnswer) =>
  new Response(new Uint8Array(a.body), { status: a.status, headers: a.headers });

function isStream(body: Buffer): boolean {
  try {
    return (JSON.parse(body.toString('utf8')) as { stream?: unknown }).stream === true;
  } catch {
    return false; // not JSON: forwarded as is, the judge says what is wrong (never kept)
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest();

export function createProxyApp(o: ProxyAppOptions): Hono {
  const app = new Hono();
  const refuse = (c: Context, status: number, code: ProxyErrorCode | string, message: string) => {
    o.metrics.rejected.inc({ code });
    return send(providerError(c.req.path, status, code as ProxyErrorCode, message));
  };

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', (c) =>
    o.draining() ? c.json({ status: 'draining' }, 503) : c.json({ status: 'ready' }),
  );
  app.onError((err, c) => {
    o.log?.error({ err, path: c.req.path }, 'proxy request failed');
    return refuse(c, 500, 'internal_error', String(err?.message ?? err));
  });

  // Probes need no token; everything else does, /metrics included (as on `serve`).
  app.use('*', async (c, next) => {
    if (o.token !== undefined && !authorized(c, o.token)) {
      return refuse(
        c,
        401,
        'unauthorized',
        'send the proxy token as "Authorization: Bearer <token>" or x-api-key',
      );
    }
    await next();
  });
  app.get('/metrics', async (c) => {
    c.header('content-type', o.metrics.registry.contentType);
    return c.body(await o.metrics.registry.metrics());
  });
  app.use('*', async (c, next) => {
    o.track(1);
    try {
      if (o.draining()) {
        return refuse(c, 503, 'draining', 'the judge proxy is shutting down; send this to another');
      }
      await next();
    } finally {
      o.track(-1);
    }
  });
  app.use(
    '*',
    bodyLimits({
      maxBytes: o.maxBodyBytes,
      budget: createBodyBudget(4 * o.maxBodyBytes),
      idleTimeoutMs: 30_000,
      refuse: (c, why) => {
        const { status, code } = REFUSALS[why];
        return refuse(
          c,
          status,
          code,
          why === 'too_large'
            ? `request body over ${o.maxBodyBytes} bytes (--max-body-mb)`
            : `request body refused: ${code}`,
        );
      },
    }),
  );

  app.all('*', async (c) => {
    const tail = routeTail(c.req.method, c.req.path);
    if (!tail) return refuse(c, 404, 'not_found', `no route ${c.req.method} ${c.req.path}`);
    const headers = requestHeaders(c, o);
    const query = new URL(c.req.url).search;
    if (c.req.method === 'GET') {
      o.metrics.upstreamCalls.inc({ path: tail });
      return count(
        o,
        send(
          await forward(
            { upstream: o.upstream, tail: tail + query, method: 'GET', headers },
            o.timeoutMs,
          ),
        ),
      );
    }
    const body = Buffer.from(await c.req.arrayBuffer());
    const req = {
      upstream: o.upstream,
      tail: tail + query,
      method: 'POST' as const,
      headers,
      body,
    };
    if (isStream(body)) {
      o.metrics.upstreamCalls.inc({ path: tail });
      return count(o, await o.gate(() => forwardStream(req, o.timeoutMs, c.req.raw.signal)));
    }
    // A request that says `cache-control: no-cache` (or no-store) must reach the judge: a
    // readiness or `models check` probe asks whether the judge answers now. It is neither
    // answered from kept answers nor joined to a flight, and its answer is not kept.
    if (/\bno-(cache|store)\b/i.test(c.req.header('cache-control') ?? '')) {
      return count(
        o,
        send(
          await o.gate(async () => {
            o.metrics.upstreamCalls.inc({ path: tail });
            return forward(req, o.timeoutMs);
          }),
        ),
      );
    }
    const key = proxyKey({ upstream: o.upstream, path: tail + query, headers, body });
    const kept = o.store.peek(key);
    if (kept) {
      o.metrics.cacheHits.inc({ store: 'memory' });
      return send({ status: 200, headers: { 'content-type': kept.contentType }, body: kept.body });
    }
    // Not tied to this request: a client that goes away leaves the flight to finish and be kept.
    const { result, joined } = o.coalescer.run(key, async (): Promise<Flight> => {
      const shared = await o.store.get(key);
      if (shared) {
        return {
          from: 'shared',
          answer: {
            status: 200,
            headers: { 'content-type': shared.contentType },
            body: shared.body,
          },
        };
      }
      const answer = await o.gate(async () => {
        o.metrics.upstreamCalls.inc({ path: tail });
        const a = await forward(req, o.timeoutMs);
        if (a.status === 200) o.gate.charge(answerTokens(a.body));
        return a;
      });
      if (answer.status === 200) {
        await o.store.set(key, {
          contentType: answer.headers['content-type'] ?? 'application/json',
          body: answer.body,
        });
      } else {
        o.metrics.upstreamErrors.inc({ status: String(answer.status) });
      }
      return { from: 'upstream', answer };
    });
    const flight = await result;
    if (joined) o.metrics.coalesced.inc();
    else if (flight.from === 'shared') o.metrics.cacheHits.inc({ store: 'shared' });
    return send(flight.answer);
  });
  return app;
}

/** Counts a GET, stream or no-cache answer that was not a 200 as an upstream error. */
function count(o: ProxyAppOptions, res: Response): Response {
  if (res.status !== 200) o.metrics.upstreamErrors.inc({ status: String(res.status) });
  return res;
}

function authorized(c: Context, token: string): boolean {
  const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
  const given = bearer ?? c.req.header('x-api-key');
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/** The headers forwarded: the client's, or with a proxy token, the proxy's own upstream key. */
function requestHeaders(c: Context, o: ProxyAppOptions): Record<string, string | undefined> {
  const h: Record<string, string | undefined> = {};
  for (const [k, v] of c.req.raw.headers) h[k.toLowerCase()] = v;
  if (o.token === undefined) return h;
  // The client's credential was the proxy token: never send it on.
  delete h.authorization;
  delete h['x-api-key'];
  if (o.upstreamKey) {
    if (c.req.path.endsWith('/messages')) h['x-api-key'] = o.upstreamKey;
    else h.authorization = `Bearer ${o.upstreamKey}`;
  }
  return h;
}
