// The reward server as a hono app: routes for rubrica's native API, verl and OpenRLHF, plus
// health, metrics and the OpenAPI document. It knows nothing of how a score is made: it is
// handed a RolloutScorer, validates and admits requests, and reshapes records per trainer.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from 'pino';
import type { ScoreRecord } from '../core/record.ts';
import { ScorerConfigError } from '../pipeline/score.ts';
import type { RolloutInput, RolloutScorer, ScoreBatchOptions } from '../pipeline/types.ts';
import { type Admission, createAdmission, resolveLimits, type ServerLimits } from './admission.ts';
import { bodyLimitDrained } from './body-limit.ts';
import { createServerMetrics, type ServerMetrics } from './metrics.ts';
import { registerRoutes } from './routes.ts';

export interface ServerOptions {
  scorer: RolloutScorer;
  /** When set, every route but /healthz needs `Authorization: Bearer <token>`. */
  token?: string;
  limits?: Partial<ServerLimits>;
  metrics?: ServerMetrics;
  /** Shared with startServer so a shutdown can drain what this app admitted. */
  admission?: Admission;
  logger?: Logger;
}

export type ScoreOutcome = { ok: true; records: ScoreRecord[] } | { ok: false; response: Response };

/** What the routes need from the app: one admitted, metered call of the scorer. */
export interface ServerContext {
  limits: ServerLimits;
  admission: Admission;
  metrics: ServerMetrics;
  startedAt: number;
  score(c: Context, items: RolloutInput[], opts: ScoreBatchOptions): Promise<ScoreOutcome>;
}

export const errorBody = (code: string, message: string) => ({ error: { code, message } });

function issuesMessage(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  const parts = issues
    .slice(0, 8)
    .map((i) => `${i.path.length ? i.path.map(String).join('.') : 'body'}: ${i.message}`);
  if (issues.length > 8) parts.push(`… and ${issues.length - 8} more`);
  return parts.join('; ');
}

export function createServer(opts: ServerOptions): OpenAPIHono {
  const limits = resolveLimits(opts.limits);
  const admission = opts.admission ?? createAdmission(limits.maxInFlight);
  const metrics = opts.metrics ?? createServerMetrics();
  const log = opts.logger;

  const app = new OpenAPIHono({
    defaultHook: (result, c) => {
      if (!result.success) {
        metrics.rejected.inc({ reason: 'invalid' });
        return c.json(errorBody('invalid_request', issuesMessage(result.error.issues)), 400);
      }
    },
  });

  app.onError((err, c) => {
    if (err instanceof HTTPException) {
      const message = err.status === 400 ? `bad request: ${err.message}` : err.message;
      return c.json(
        errorBody(err.status === 401 ? 'unauthorized' : 'bad_request', message),
        err.status,
      );
    }
    log?.error({ err, path: c.req.path }, 'request failed');
    return c.json(errorBody('internal_error', String((err as Error)?.message ?? err)), 500);
  });
  app.notFound((c) =>
    c.json(errorBody('not_found', `no route ${c.req.method} ${c.req.path}`), 404),
  );

  // Metering wraps everything, auth and limits included, so refusals are counted too.
  app.use('*', async (c, next) => {
    const t0 = performance.now();
    await next();
    const route = c.req.routePath && c.req.routePath !== '*' ? c.req.routePath : 'other';
    metrics.requests.inc({ route, status: String(c.res.status) });
    metrics.requestSeconds.observe({ route }, (performance.now() - t0) / 1000);
  });

  const token = opts.token;
  if (token) {
    const auth = bearerAuth({
      token,
      noAuthenticationHeader: {
        message: errorBody('unauthorized', 'missing Authorization: Bearer <token> header'),
      },
      invalidAuthenticationHeader: {
        message: errorBody('unauthorized', 'Authorization header must be "Bearer <token>"'),
      },
      invalidToken: { message: errorBody('unauthorized', 'invalid token') },
    });
    app.use('*', (c, next) => (c.req.path === '/healthz' ? next() : auth(c, next)));
  }

  app.use(
    '/v1/*',
    bodyLimitDrained(limits.maxBodyBytes, (c) => {
      metrics.rejected.inc({ reason: 'body_too_large' });
      return c.json(
        errorBody('body_too_large', `request body over ${limits.maxBodyBytes} bytes`),
        413,
      );
    }),
  );

  const ctx: ServerContext = {
    limits,
    admission,
    metrics,
    startedAt: Date.now(),
    async score(c, items, scoreOpts) {
      if (items.length > limits.maxItemsPerRequest) {
        metrics.rejected.inc({ reason: 'too_many_items' });
        const msg = `${items.length} rollouts in one request; the limit is ${limits.maxItemsPerRequest}`;
        return { ok: false, response: c.json(errorBody('too_many_items', msg), 400) };
      }
      if (!admission.tryAcquire(items.length)) {
        const reason = admission.draining ? 'draining' : 'busy';
        metrics.rejected.inc({ reason });
        c.header('Retry-After', String(limits.retryAfterSeconds));
        const msg = admission.draining
          ? 'server is shutting down'
          : `server busy: ${admission.inFlight} of ${admission.max} rollouts in flight; retry later`;
        return { ok: false, response: c.json(errorBody(reason, msg), 503) };
      }
      metrics.inFlight.inc(items.length);
      const t0 = performance.now();
      try {
        let records: ScoreRecord[];
        try {
          records = await opts.scorer.scoreBatch(items, { ...scoreOpts, signal: c.req.raw.signal });
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
        log?.info(
          {
            route: c.req.path,
            items: items.length,
            unscoreable,
            ms: Math.round(performance.now() - t0),
          },
          'scored',
        );
        return { ok: true, records };
      } finally {
        metrics.inFlight.dec(items.length);
        admission.release(items.length);
      }
    },
  };

  registerRoutes(app, ctx);
  return app;
}
