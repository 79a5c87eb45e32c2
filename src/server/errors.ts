// The hooks that turn validation failures and unexpected exceptions into the one HTTP error
// body (src/core/error-body.ts).
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from 'pino';
import { errorBody, issuesMessage } from '../core/error-body.ts';
import type { ServerMetrics } from './metrics.ts';

/** The OpenAPIHono defaultHook: a body that fails its schema is a 400 naming the fields. */
export function validationHook(metrics: ServerMetrics) {
  return (
    result: {
      success: boolean;
      error?: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> };
    },
    c: Context,
  ) => {
    if (result.success) return undefined;
    metrics.rejected.inc({ reason: 'invalid' });
    return c.json(errorBody('invalid_request', issuesMessage(result.error?.issues ?? [])), 400);
  };
}

/** app.onError: hono's HTTPExceptions keep their status; anything else is a logged 500. */
export function errorHandler(log: Logger | undefined) {
  return (err: Error, c: Context) => {
    if (err instanceof HTTPException) {
      const message = err.status === 400 ? `bad request: ${err.message}` : err.message;
      return c.json(
        errorBody(err.status === 401 ? 'unauthorized' : 'bad_request', message),
        err.status,
      );
    }
    log?.error({ err, path: c.req.path }, 'request failed');
    return c.json(errorBody('internal_error', String(err?.message ?? err)), 500);
  };
}
