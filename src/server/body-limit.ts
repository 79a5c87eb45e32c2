// Request bodies, read so that memory stays bounded and clients can read the refusal.
//  - One body may not pass `maxBytes` (413), whether it declares a Content-Length or
//    arrives chunked: both are counted as they stream.
//  - All bodies being read and parsed at once share one byte budget (503 `body_budget` +
//    Retry-After above it), so six concurrent 60 MB requests cannot together exhaust a
//    320 MB heap. A sized body reserves its length before a byte is read; a chunked one
//    reserves chunk by chunk. The reservation ends when the route has parsed the body
//    (releaseBodyBudget) or, at the latest, when the response is made.
//  - A body that stops arriving for `idleTimeoutMs` is dropped with 408 `body_timeout`.
// Common clients (Python's urllib, undici) send the whole body before reading a response;
// if the server answered and closed while they were still sending, they would see a broken
// pipe instead of the status, so a refused body is read and dropped (up to drainCap).
import type { ReadableStreamReadResult } from 'node:stream/web';
import type { Context, MiddlewareHandler } from 'hono';
import { type Budget, createBudget } from '../core/pool-budget.ts';

/** Past this many bytes a refused body is not drained: the socket is simply closed. */
export function drainCap(maxBytes: number): number {
  return Math.min(4 * maxBytes, 256 * 1024 * 1024);
}

/** Bytes of request bodies being read at once, over all requests (a refusing budget). */
export type BodyBudget = Budget;

/** A budget of `max` body bytes in flight: a body that does not fit is refused, not queued. */
export function createBodyBudget(max: number): BodyBudget {
  return createBudget(max);
}

/** `gone`: the client disconnected mid-body (nobody reads the answer; the budget is freed). */
export type BodyRefusal = 'too_large' | 'busy' | 'timeout' | 'gone';

export interface BodyLimitOptions {
  maxBytes: number;
  budget: BodyBudget;
  idleTimeoutMs: number;
  /**
   * Charge the budget by the bytes actually received, also for a sized body (default: a
   * sized body reserves its declared length up front). A slow sender declaring a huge
   * length then holds only what it has sent (the judge proxy's choice, issue 42).
   */
  chargeReceived?: boolean;
  /** The whole body must arrive within this many ms (408 `body_timeout`), idle or not. */
  deadlineMs?: number;
  refuse(c: Context, why: BodyRefusal): Response;
}

const releases = new WeakMap<Request, () => void>();

/** Ends the body's budget reservation: called once the route has its parsed body. */
export function releaseBodyBudget(req: Request): void {
  releases.get(req)?.();
}

const TIMED_OUT = Symbol('timed out');
const GONE = Symbol('client gone');

/** reader.read(); TIMED_OUT when nothing arrives for `ms`; GONE when the client left. */
async function readOrTimeout(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  ms: number,
  signal?: AbortSignal,
): Promise<ReadableStreamReadResult<Uint8Array> | typeof TIMED_OUT | typeof GONE> {
  if (signal?.aborted) return GONE;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<typeof TIMED_OUT | typeof GONE>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
    onAbort = () => resolve(GONE);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const read = reader.read().catch((): typeof GONE => GONE);
    return await Promise.race([read, stop]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/** Reads and drops the rest of a body, up to `cap` bytes, so the client sees our answer. */
async function discard(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  cap: number,
  idleMs: number,
  signal: AbortSignal,
): Promise<void> {
  let seen = 0;
  try {
    while (seen <= cap) {
      const r = await readOrTimeout(reader, idleMs, signal);
      if (r === TIMED_OUT || r === GONE || r.done) return;
      seen += r.value.byteLength;
    }
  } catch {
    // The client went away; there is no one left to answer.
  }
}

/**
 * A sized body refused before a byte was read. One that is too large is drained here when
 * that is cheap, so the client reads the 413. Others — and a budget refusal, which must
 * not wait on a slow sender — are left to @hono/node-server, which drains briefly after the
 * answer and then closes the socket (locking the stream with a reader would stop that).
 */
async function refuseUnread(
  c: Context,
  declared: number,
  why: BodyRefusal,
  opts: BodyLimitOptions,
): Promise<Response> {
  const cap = drainCap(opts.maxBytes);
  const stream = why === 'too_large' && declared <= cap ? c.req.raw.body : null;
  if (stream) {
    const reader = stream.getReader();
    await discard(reader, cap, opts.idleTimeoutMs, c.req.raw.signal);
    reader.releaseLock();
  }
  return opts.refuse(c, why);
}

type ReadOutcome = { ok: true; body: Uint8Array } | { ok: false; why: BodyRefusal };

/** Reads a whole body under the per-request cap, the shared budget and the idle timeout. */
async function readBody(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  declared: number | undefined,
  opts: BodyLimitOptions,
  hold: (n: number) => boolean,
  signal: AbortSignal,
): Promise<ReadOutcome> {
  const cap = drainCap(opts.maxBytes);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const until = opts.deadlineMs ? Date.now() + opts.deadlineMs : Number.POSITIVE_INFINITY;
  for (;;) {
    const wait = Math.min(opts.idleTimeoutMs, Math.max(0, until - Date.now()));
    const r = await readOrTimeout(reader, wait, signal);
    if (r === TIMED_OUT || r === GONE) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, why: r === GONE ? 'gone' : 'timeout' };
    }
    if (r.done) break;
    size += r.value.byteLength;
    if (size > opts.maxBytes) {
      if (size <= cap) await discard(reader, cap - size, opts.idleTimeoutMs, signal);
      return { ok: false, why: 'too_large' };
    }
    // A sized body reserved its whole length up front; a chunked one reserves as it grows.
    if ((declared === undefined || opts.chargeReceived) && !hold(r.value.byteLength)) {
      await discard(reader, cap - size, opts.idleTimeoutMs, signal);
      return { ok: false, why: 'busy' };
    }
    chunks.push(r.value);
  }
  return { ok: true, body: Buffer.concat(chunks, size) };
}

export function bodyLimits(opts: BodyLimitOptions): MiddlewareHandler {
  return async (c, next) => {
    // Headers first: touching `c.req.raw.body` turns the socket into a web stream, which
    // must not happen for a body refused unread (see refuseUnread). A body without a
    // Content-Length (chunked, or built in-process) is counted as it streams.
    const chunked = c.req.raw.headers.has('transfer-encoding');
    const length = Number(c.req.header('content-length'));
    const declared = !chunked && Number.isFinite(length) && length >= 0 ? length : undefined;
    let held = 0;
    const release = () => {
      opts.budget.release(held);
      held = 0;
    };
    const hold = (n: number) => {
      if (!opts.budget.tryAcquire(n)) return false;
      held += n;
      return true;
    };
    // A sized body is judged by its declared length before a byte is read.
    if (declared !== undefined && declared > opts.maxBytes) {
      return refuseUnread(c, declared, 'too_large', opts);
    }
    if (declared !== undefined && !opts.chargeReceived && !hold(declared)) {
      return refuseUnread(c, declared, 'busy', opts);
    }
    const stream = c.req.raw.body;
    if (!stream) {
      release();
      return next();
    }
    const reader = stream.getReader();
    try {
      const out = await readBody(reader, declared, opts, hold, c.req.raw.signal);
      if (!out.ok) return opts.refuse(c, out.why);
      c.req.raw = new Request(c.req.raw, { body: out.body });
      releases.set(c.req.raw, release);
      await next();
    } finally {
      release();
      try {
        reader.releaseLock();
      } catch {
        // A read abandoned by the idle timeout may still be pending; the stream is done.
      }
    }
  };
}
