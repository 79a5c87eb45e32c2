// The error shape of every refusal the server makes, `{"error": {"code", "message"}}`, and
// the hooks that turn validation failures and unexpected exceptions into it.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from 'pino';
import type { ServerMetrics } from './metrics.ts';

export const errorBody = (code: string, message: string) => ({ error: { code, message } });

/** Zod issues as one line naming the fields: `items.0.completion: …; body: …`. */
export function issuesMessage(
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
): string {
  const parts = issues
    .slice(0, 8)
    .map((i) => `${i.path.length ? i.path.map(String).join('.') : 'body'}: ${i.message}`);
  if (issues.length > 8) parts.push(`… and ${issues.length - 8} more`);
  return parts.join('; ');
}

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
