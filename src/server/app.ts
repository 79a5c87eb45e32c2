// The reward server as a hono app: routes for rubrica's native API, verl and OpenRLHF, plus
// health, readiness, metrics and the OpenAPI document. It knows nothing of how a score is
// made: it is handed a RolloutScorer, and this file only assembles the layers in order —
// metering, auth (auth.ts), body limits (body-limit.ts), admission and scoring
// (score-call.ts), routes (routes.ts).
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Logger } from 'pino';
import { errorBody } from '../core/error-body.ts';
import type { RewardKind } from '../core/record.ts';
import type { DoctorReport } from '../domains/doctor.ts';
import type { HedgeStats } from '../models/hedge.ts';
import { type DeadlineOptions, scoreByDeadline } from '../pipeline/deadline.ts';
import type { RolloutScorer } from '../pipeline/types.ts';
import { type Admission, createAdmission, resolveLimits, type ServerLimits } from './admission.ts';
import { markArrival } from './arrival.ts';
import { bearerAuth } from './auth.ts';
import { type BodyRefusal, bodyLimits, createBodyBudget } from './body-limit.ts';
import { ServerConfigError } from './config-error.ts';
import { errorHandler, validationHook } from './errors.ts';
import { createGatherer, DEFAULT_GATHER, type GatherOptions } from './gather.ts';
import { createServerHealth, type ServerHealthOptions } from './health.ts';
import { createServerMetrics, type ServerMetrics } from './metrics.ts';
import { registerOpenEnvRoutes } from './openenv/http-routes.ts';
import { mountOrs, type OrsOptions } from './ors/index.ts';
import type { Readiness } from './readiness.ts';
import { registerRoutes } from './routes.ts';
import { createScoreCall } from './score-call.ts';
import {
  type RetryStatsSource,
  registerHedgeMetrics,
  registerRetryMetrics,
} from './tail-metrics.ts';

export { errorBody } from '../core/error-body.ts';
export type { ScoreOutcome } from './score-call.ts';

/** The scorer to serve, its token, limits, metrics, logger, readiness and health settings. */
export interface ServerOptions {
  scorer: RolloutScorer;
  /** When set, every route but /healthz and /readyz needs `Authorization: Bearer <token>`. */
  token?: string;
  limits?: Partial<ServerLimits>;
  metrics?: ServerMetrics;
  /** Shared with startServer so a shutdown can drain what this app admitted. */
  admission?: Admission;
  logger?: Logger;
  /** Whether the judge answers, for /readyz; without it /readyz reports ready while serving. */
  readiness?: Readiness;
  /**
   * The isolation report (`rubrica doctor`, run by serve at start) for /readyz's body: null
   * while it runs. It never changes /readyz's status code.
   */
  doctor?: () => DoctorReport | null;
  /** Reward-health monitor settings (alert thresholds, window, flat ε); false turns it off. */
  health?: ServerHealthOptions | false;
  /**
   * How per-sample routes (/v1/openrlhf, /v1/slime, /verify) gather requests that arrive
   * together into one scored batch (src/server/gather.ts). Default: 20 ms, 512 rollouts.
   */
  gather?: Partial<GatherOptions>;
  /**
   * serve --deadline-ms: every request is answered by then; a rollout not scored in time is
   * a grader fault with reason `deadline` and its work runs on into the cache (deadline.ts).
   * The native route's `deadline_ms` overrides it per request. Unset: no deadline.
   */
  deadlineMs?: number;
  /** The scorer's default rewards, named by the records of rollouts past their deadline. */
  defaultRewards?: readonly RewardKind[];
  /** The judge client's retry-budget figures, shown on /metrics (tail-metrics.ts). */
  retryStats?: RetryStatsSource;
  /** The judge client's hedge figures, shown on /metrics. */
  hedgeStats?: () => HedgeStats | null;
  /**
   * Serve the OpenReward Standard environment (`serve --ors`) at the root beside rubrica's
   * own routes (src/server/ors/): its tasks are the loaded rubrics.
   */
  ors?: OrsOptions;
  /**
   * Serve the OpenEnv environment (`serve --openenv`): `/ws` (attached by startServer) and the
   * HTTP routes `/reset`, `/step`, `/state`, `/schema`, `/metadata`, `/health`. Not with `ors`
   * on the same port: both protocols define `/health`.
   */
  openenv?: OpenEnvOptions;
}

/** What `--openenv` needs: the tasks (the loaded rubrics), the preview, the step deadline. */
export interface OpenEnvOptions {
  tasks: OrsOptions['tasks'];
  preview?: OrsOptions['preview'];
  /** A step not scored by then answers `reason: "deadline"`, ms (default 55 s). */
  stepDeadlineMs?: number;
}

/** Routes a probe must reach without a token. */
const OPEN_ROUTES: ReadonlySet<string> = new Set(['/healthz', '/readyz']);
/** With --ors or --openenv, their liveness route is open too (their clients probe without a key). */
const OPEN_ROUTES_ORS: ReadonlySet<string> = new Set([...OPEN_ROUTES, '/health']);

const BODY_REFUSALS: Record<BodyRefusal, { status: 400 | 408 | 413 | 503; code: string }> = {
  too_large: { status: 413, code: 'body_too_large' },
  busy: { status: 503, code: 'body_budget' },
  timeout: { status: 408, code: 'body_timeout' },
  gone: { status: 400, code: 'client_closed' },
};

function bodyRefusal(limits: ServerLimits, metrics: ServerMetrics) {
  return (c: Context, why: BodyRefusal): Response => {
    const { status, code } = BODY_REFUSALS[why];
    metrics.rejected.inc({ reason: code });
    const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
    const message = {
      too_large: `request body over ${limits.maxBodyBytes} bytes (--max-body-mb)`,
      busy: `server is already reading ${mb(limits.maxBodyBytesInFlight)} of request bodies; retry later`,
      timeout: `request body stalled: nothing arrived for ${limits.bodyIdleTimeoutMs} ms`,
      gone: 'the client closed the connection before sending the whole body',
    }[why];
    if (why === 'busy') c.header('Retry-After', String(limits.retryAfterSeconds));
    // A stalled or refused body leaves the connection in an unknown state: do not reuse it.
    if (why !== 'too_large') c.header('Connection', 'close');
    return c.json(errorBody(code, message), status);
  };
}

/**
 * The reward service as a hono app (routes, auth, limits, metrics, OpenAPI) without a socket:
 * serve it yourself, or test it with `app.request(…)`. Scoring failures become records with
 * a status, not HTTP errors; bad requests get a JSON error body with a code.
 * @example
 * ```ts
 * const app = createServer({ scorer, token: 'secret' });
 * const res = await app.request('/healthz');
 * ```
 */
export function createServer(opts: ServerOptions): OpenAPIHono {
  const limits = resolveLimits(opts.limits);
  const admission = opts.admission ?? createAdmission(limits.maxInFlight);
  const metrics = opts.metrics ?? createServerMetrics();
  const log = opts.logger;
  if (opts.retryStats) registerRetryMetrics(metrics.registry, opts.retryStats);
  if (opts.hedgeStats) registerHedgeMetrics(metrics.registry, opts.hedgeStats);

  const app = new OpenAPIHono({ defaultHook: validationHook(metrics) });
  app.onError(errorHandler(log));
  app.notFound((c) =>
    c.json(errorBody('not_found', `no route ${c.req.method} ${c.req.path}`), 404),
  );

  // Metering wraps everything, auth and limits included, so refusals are counted too.
  app.use('*', async (c, next) => {
    const t0 = performance.now();
    markArrival(c, t0);
    await next();
    const route = c.req.routePath && c.req.routePath !== '*' ? c.req.routePath : 'other';
    metrics.requests.inc({ route, status: String(c.res.status) });
    metrics.requestSeconds.observe({ route }, (performance.now() - t0) / 1000);
  });
  if (opts.token !== undefined) {
    app.use('*', bearerAuth(opts.token, opts.ors || opts.openenv ? OPEN_ROUTES_ORS : OPEN_ROUTES));
  }
  const limitBodies = bodyLimits({
    maxBytes: limits.maxBodyBytes,
    budget: createBodyBudget(limits.maxBodyBytesInFlight),
    idleTimeoutMs: limits.bodyIdleTimeoutMs,
    refuse: bodyRefusal(limits, metrics),
  });
  // NeMo Gym calls its resources server's /verify at the root (or under its per-rollout
  // prefix when observability is on), so those bodies are limited like /v1's.
  for (const path of ['/v1/*', '/verify', '/ng-rollout/*']) app.use(path, limitBodies);
  const gather = { ...DEFAULT_GATHER, ...opts.gather };
  if (opts.ors && opts.openenv) {
    throw new ServerConfigError(
      'protocol_clash',
      '--ors and --openenv both define /health at the root: serve each from its own process (docs/serve.md)',
    );
  }
  if (opts.ors) {
    mountOrs(app, opts.ors, { scorer: opts.scorer, admission, limits, limitBodies, log });
  }
  if (opts.openenv) {
    for (const path of ['/reset', '/step']) app.post(path, limitBodies);
    registerOpenEnvRoutes(app, { ...opts.openenv, scorer: opts.scorer, admission, limits });
  }
  const deadline: DeadlineOptions = {
    ...(opts.defaultRewards ? { defaultRewards: opts.defaultRewards } : {}),
    onLate: () => metrics.deadlineFaults.inc(),
    onLateFinished: (ok) => metrics.lateFinished.inc({ outcome: ok ? 'ok' : 'fault' }),
  };
  const deadlineMs = opts.deadlineMs;
  // A gathered request waits up to the window before its batch starts: the batch gets what
  // is left of the deadline, so the request is still answered by its own.
  const gatherDeadline = deadlineMs ? Math.max(1, deadlineMs - gather.windowMs) : 0;

  registerRoutes(app, {
    limits,
    admission,
    metrics,
    startedAt: Date.now(),
    readiness: opts.readiness,
    doctor: opts.doctor,
    flatEpsilon: opts.health ? opts.health.flatEpsilon : undefined,
    score: createScoreCall({
      scorer: opts.scorer,
      limits,
      admission,
      metrics,
      log,
      deadlineMs,
      deadline,
      gatherer: createGatherer(
        (items, scoreOpts) =>
          gatherDeadline
            ? scoreByDeadline(opts.scorer, items, scoreOpts, gatherDeadline, deadline)
            : opts.scorer.scoreBatch(items, scoreOpts),
        gather,
      ),
      health:
        opts.health === false ? undefined : createServerHealth(opts.health ?? {}, metrics, log),
    }),
  });
  return app;
}
