// The judge proxy as a hono app: /healthz, /readyz, /metrics, and every `…/chat/completions`,
// `…/messages` (POST) and `…/models` (GET) forwarded to the upstream with the same tail.
// A non-streaming POST is answered, in order, from the kept answers in memory, by joining an
// identical call in flight, from the shared store, or by one upstream call under the budget
// — a call that runs to its end whoever is still waiting for it, and whose answer is kept
// when it is a whole, good answer of its route (answer-check.ts). Anything the proxy cannot
// read exactly as the judge will (a stream, an ambiguous `stream`, another encoding) is piped
// through, neither joined nor kept, holding its budget slot until it ends. Every upstream
// call — streams and GET …/models too — waits in the bounded queue (queue.ts).
import { createHash, timingSafeEqual } from 'node:crypto';
import { type Context, Hono } from 'hono';
import type { Logger } from 'pino';
import type { CallGate } from '../models/shared-budget.ts';
import {
  type BodyBudget,
  type BodyRefusal,
  bodyLimits,
  releaseBodyBudget,
} from '../server/body-limit.ts';
import { answerFacts, keepableRequest } from './answer-check.ts';
import { answerGc } from './answer-gc.ts';
import type { AnswerStore } from './answer-store.ts';
import type { Coalescer } from './coalesce.ts';
import {
  type ForwardRequest,
  forward,
  forwardStream,
  type ProxyErrorCode,
  providerError,
  type UpstreamAnswer,
} from './forward.ts';
import { proxyKey } from './key.ts';
import type { ProxyMetrics } from './metrics.ts';
import { QUEUE_FULL, type QueuedGate } from './queue.ts';
import { streamTokens } from './stream-tokens.ts';

/** A flight's outcome: the answer and where it came from, or a refusal to queue it. */
export type Flight =
  | { answer: UpstreamAnswer; from: 'upstream' | 'shared' }
  | { from: 'queue_full' };

export interface ProxyAppOptions {
  upstream: string;
  /** Per upstream attempt, ms. */
  timeoutMs: number;
  maxBodyBytes: number;
  /** Request-body bytes read at once over all requests (--max-body-total-mb). */
  bodyBudget: BodyBudget;
  /** A whole request body must arrive within this, ms (--body-timeout). */
  bodyTimeoutMs: number;
  /** Largest upstream answer read, bytes (--max-answer-mb). */
  maxAnswerBytes: number;
  /** Every upstream call waits here for a slot of `gate` (--max-queue, --queue-timeout-s). */
  queue: QueuedGate;
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

// The Buffer itself, not a copy: clients joined to one flight share one answer buffer
// (@hono/node-server writes a Uint8Array body as it is).
const send = (a: UpstreamAnswer) =>
  new Response(a.body as unknown as Uint8Array<ArrayBuffer>, {
    status: a.status,
    headers: a.headers,
  });

const digest = (s: string) => createHash('sha256').update(s).digest();

export function createProxyApp(o: ProxyAppOptions): Hono {
  // Every 32 MB of answers read: a collection (answer-gc.ts, the stated memory bound).
  const collect = answerGc(32 * 1024 * 1024);
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
      budget: o.bodyBudget,
      // Charged by bytes received and ended by a whole-body deadline: four slow senders
      // declaring 64 MiB each no longer hold the budget everyone else needs (issue 42).
      chargeReceived: true,
      idleTimeoutMs: Math.min(30_000, o.bodyTimeoutMs),
      deadlineMs: o.bodyTimeoutMs,
      refuse: (c, why) => {
        const { status, code } = REFUSALS[why];
        const res = refuse(
          c,
          status,
          code,
          why === 'too_large'
            ? `request body over ${o.maxBodyBytes} bytes (--max-body-mb)`
            : why === 'busy'
              ? 'request bodies being read are over --max-body-total-mb; retry shortly'
              : why === 'timeout'
                ? `request body did not arrive within ${o.bodyTimeoutMs} ms (--body-timeout)`
                : `request body refused: ${code}`,
        );
        if (why === 'busy') res.headers.set('retry-after', '1');
        return res;
      },
    }),
  );

  const full = (c: Context) => {
    const res = refuse(
      c,
      503,
      'queue_full',
      `too many judge calls waiting (--max-queue ${o.queue.maxQueue}, --queue-timeout-s ${o.queue.timeoutMs / 1000}); retry later`,
    );
    res.headers.set('retry-after', String(Math.max(1, Math.ceil(o.queue.timeoutMs / 4000))));
    return res;
  };
  const call = (tail: string, req: ForwardRequest) =>
    o.queue.run(async () => {
      o.metrics.upstreamCalls.inc({ path: tail });
      return forward(req, o.timeoutMs, o.maxAnswerBytes);
    });

  app.all('*', async (c) => {
    const tail = routeTail(c.req.method, c.req.path);
    if (!tail) return refuse(c, 404, 'not_found', `no route ${c.req.method} ${c.req.path}`);
    const headers = requestHeaders(c, o);
    const query = new URL(c.req.url).search;
    if (c.req.method === 'GET') {
      const a = await call(tail, {
        upstream: o.upstream,
        tail: tail + query,
        method: 'GET',
        headers,
      });
      return a === QUEUE_FULL ? full(c) : count(o, send(a));
    }
    const body = Buffer.from(await c.req.arrayBuffer());
    // Parsed: the body's bytes leave the shared budget while the call waits for the judge.
    releaseBodyBudget(c.req.raw);
    const req: ForwardRequest = {
      upstream: o.upstream,
      tail: tail + query,
      method: 'POST',
      headers,
      body,
    };
    if (!keepableRequest(body)) {
      const res = await piped(o, tail, req, c.req.raw.signal);
      return res === QUEUE_FULL ? full(c) : count(o, res);
    }
    // A request that says `cache-control: no-cache` (or no-store) must reach the judge: a
    // readiness or `models check` probe asks whether the judge answers now. It is neither
    // answered from kept answers nor joined to a flight, and its answer is not kept.
    if (/\bno-(cache|store)\b/i.test(c.req.header('cache-control') ?? '')) {
      const a = await call(tail, req);
      return a === QUEUE_FULL ? full(c) : count(o, send(a));
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
      const answer = await o.queue.run(async () => {
        o.metrics.upstreamCalls.inc({ path: tail });
        const a = await forward(req, o.timeoutMs, o.maxAnswerBytes);
        collect(a.body.byteLength);
        const facts = a.status === 200 ? answerFacts(tail, a.body) : undefined;
        if (facts) o.gate.charge(facts.tokens);
        return { ...a, complete: facts?.complete === true };
      });
      if (answer === QUEUE_FULL) return { from: 'queue_full' };
      if (answer.complete) {
        await o.store.set(key, {
          contentType: answer.headers['content-type'] ?? 'application/json',
          body: answer.body,
        });
      } else if (answer.status === 200) {
        o.metrics.notKept.inc();
        o.log?.warn(
          { path: tail, bytes: answer.body.byteLength },
          'judge 200 not a whole answer; not kept',
        );
      } else {
        o.metrics.upstreamErrors.inc({ status: String(answer.status) });
      }
      return { from: 'upstream', answer };
    });
    const flight = await result;
    if (flight.from === 'queue_full') return full(c);
    if (joined) o.metrics.coalesced.inc();
    else if (flight.from === 'shared') o.metrics.cacheHits.inc({ store: 'shared' });
    return send(flight.answer);
  });
  return app;
}

/**
 * A call piped through as it comes (a stream, or a body the proxy will not key), holding its
 * budget slot until the answer has ended — not only until its headers came (issue 42) — and
 * charging the tokens counted from it. The Response is resolved as soon as the judge answers.
 */
function piped(
  o: ProxyAppOptions,
  tail: string,
  req: ForwardRequest,
  client: AbortSignal,
): Promise<Response | typeof QUEUE_FULL> {
  return new Promise((resolve) => {
    o.queue
      .run(async () => {
        o.metrics.upstreamCalls.inc({ path: tail });
        const res = await forwardStream(req, o.timeoutMs, client);
        if (!res.body) return resolve(res);
        const tokens = streamTokens();
        let finish!: () => void;
        const ended = new Promise<void>((r) => (finish = r));
        // A client gone mid-stream aborts the upstream read (forwardStream ties it to the
        // client), and ends the slot even if nobody pulls again.
        client.addEventListener('abort', () => finish(), { once: true });
        const reader = res.body.getReader();
        // A judge that stops sending mid-stream would hold the slot for ever: --timeout-s
        // bounds each silence between chunks.
        const read = () => {
          let timer: NodeJS.Timeout | undefined;
          const silent = new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`the judge's stream sent nothing for ${o.timeoutMs} ms`)),
              o.timeoutMs,
            );
          });
          return Promise.race([reader.read(), silent]).finally(() => clearTimeout(timer));
        };
        const out = new ReadableStream<Uint8Array>({
          async pull(ctl) {
            try {
              const r = await read();
              if (r.done) {
                ctl.close();
                finish();
              } else {
                tokens.feed(r.value);
                ctl.enqueue(r.value);
              }
            } catch (err) {
              reader.cancel(err).catch(() => undefined);
              ctl.error(err);
              finish();
            }
          },
          cancel(reason) {
            reader.cancel(reason).catch(() => undefined);
            finish();
          },
        });
        resolve(new Response(out, { status: res.status, headers: res.headers }));
        await ended;
        o.gate.charge(tokens.total());
      })
      .then((r) => {
        if (r === QUEUE_FULL) resolve(QUEUE_FULL);
      });
  });
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
