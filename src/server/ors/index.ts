// `rubrica serve --ors`: the OpenReward Standard environment mounted on the reward app.
import type { Hono, MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { RolloutInput, RolloutScorer } from '../../pipeline/types.ts';
import type { Admission, ServerLimits } from '../admission.ts';
import { createOrsCallRegistry } from './calls.ts';
import { ORS_BODY_PATHS, registerOrsRoutes } from './routes.ts';
import { createOrsSessionStore } from './sessions.ts';
import type { OrsTasks } from './tasks.ts';
import type { OrsToolOutput } from './tools.ts';

export { ORS_ENV } from './routes.ts';
export { orsTasksFrom, readOrsTasks } from './tasks.ts';

/** What `--ors` needs beyond the reward app: the tasks, and how to preview a drawing. */
export interface OrsOptions {
  tasks: OrsTasks;
  /** The `render` tool; without it `render` answers that previews are off. */
  preview?: (item: RolloutInput) => Promise<OrsToolOutput>;
  /** Idle time after which a session is dropped, ms (default 900 s). */
  sessionTtlMs?: number;
  /** Most open sessions (default 10,000). */
  maxSessions?: number;
  /** `: ping` interval on a running call's stream, ms (default 10 s). */
  pingMs?: number;
}

const NO_PREVIEW = async (): Promise<OrsToolOutput> => ({
  blocks: [{ type: 'text', text: 'Previews are not available on this server.', detail: null }],
  metadata: null,
  reward: null,
  finished: false,
});

/** Mounts the ORS routes on `app`; returns what must be closed with the server. */
export function mountOrs(
  app: Hono,
  o: OrsOptions,
  deps: {
    scorer: RolloutScorer;
    admission: Admission;
    limits: ServerLimits;
    limitBodies: MiddlewareHandler;
    log?: Logger | undefined;
  },
): { close(): void } {
  for (const path of ORS_BODY_PATHS) app.post(path, deps.limitBodies);
  const sessions = createOrsSessionStore({
    ...(o.sessionTtlMs !== undefined ? { ttlMs: o.sessionTtlMs } : {}),
    ...(o.maxSessions !== undefined ? { maxSessions: o.maxSessions } : {}),
  });
  const calls = createOrsCallRegistry();
  registerOrsRoutes(app, {
    tasks: o.tasks,
    sessions,
    calls,
    scorer: deps.scorer,
    preview: o.preview ?? NO_PREVIEW,
    admission: deps.admission,
    limits: deps.limits,
    log: deps.log,
    ...(o.pingMs !== undefined ? { pingMs: o.pingMs } : {}),
  });
  return {
    close() {
      sessions.close();
      calls.close();
    },
  };
}
