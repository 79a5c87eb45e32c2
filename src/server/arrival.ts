// When a request arrived: the deadline's clock starts here, not when the route has read,
// parsed and validated the body and been admitted. On a busy loop those steps wait their
// turn, and a clock started after them lets the answer run late by as much (issue 38).
// Keyed by hono's Context, which lives through every middleware and the route (the body
// limit replaces c.req.raw with a buffered copy, so the Request is not a stable key).
import type { Context } from 'hono';

const arrivals = new WeakMap<Context, number>();

/** Notes the request's arrival (performance.now()); the first call for a request wins. */
export function markArrival(c: Context, at = performance.now()): void {
  if (!arrivals.has(c)) arrivals.set(c, at);
}

/** performance.now() when the request arrived, or undefined when it was never marked. */
export function arrivedAt(c: Context): number | undefined {
  return arrivals.get(c);
}
