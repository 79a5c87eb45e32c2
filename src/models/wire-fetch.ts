// The concurrency limit (p-limit, or the judge budget shared by replicas) held by exactly what
// occupies the model server: the HTTP exchange. The AI SDK builds the request (messages, the
// image's base64, the JSON schema) before it calls fetch and parses the answer after; done
// inside the slot, both kept a slot from the server for nothing and delayed every hand-off
// from one call to the next (bench:scale: ~4.5 ms of a ~20 ms hand-off). So the slot is
// taken when the body is ready to send and given back once the answer's bytes are read.

import { loopTurn } from '../core/loop-turn.ts';

/** What the limit runs; p-limit and CallGate both have this shape. */
export type Limit = <R>(fn: () => Promise<R>) => Promise<R>;

/**
 * Thrown from the wire when the circuit opened while this attempt waited for its slot: the
 * attempt must not reach a server that has just been found failing. The SDK passes an error
 * it does not know through unchanged, so the call loop can tell it from a network failure.
 */
export class CircuitOpenedWhileQueued extends Error {
  constructor() {
    super('the circuit opened while this attempt waited for a slot');
  }
}

// Statuses whose Response must have no body (the Fetch standard's "null body status").
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch that runs each request through `limit`, holding the slot until the answer's body is
 * read in full, and refuses (CircuitOpenedWhileQueued) when `blocked()` turns true while the
 * request waited. The answer is handed on as a new, fully buffered Response.
 */
export function limitedFetch(
  fetchFn: () => typeof globalThis.fetch,
  limit: Limit,
  blocked: () => boolean,
): typeof globalThis.fetch {
  // What follows the answer (the SDK parses and validates it, the judge reads it and writes
  // the cache) is synchronous: it waits for its turn of the loop (core/loop-turn.ts), outside
  // the slot, so a burst of judge answers does not hold serve's deadline timers and new
  // connections for the whole burst.
  return (input, init) =>
    limitTurn(limit, async () => {
      if (blocked()) throw new CircuitOpenedWhileQueued();
      const res = await fetchFn()(input, init);
      const body = NULL_BODY.has(res.status) ? null : await res.arrayBuffer();
      return new Response(body, {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      });
    });
}

async function limitTurn<R>(limit: Limit, fn: () => Promise<R>): Promise<R> {
  const out = await limit(fn);
  await loopTurn();
  return out;
}
