// The request-size limit, answered so that clients can actually read it. Common clients
// (Python's urllib, undici) send the whole body before reading a response; if the server
// answers 413 and closes while they are still sending, they see a broken pipe instead of the
// 413. So a body declared too large is read and dropped (up to a cap) before answering.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/** Past this many bytes an oversized body is not drained: the socket is simply closed. */
export function drainCap(maxBytes: number): number {
  return Math.min(4 * maxBytes, 256 * 1024 * 1024);
}

async function discard(body: ReadableStream<Uint8Array> | null, cap: number): Promise<void> {
  if (!body) return;
  let seen = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      seen += value.byteLength;
      if (seen > cap) return;
    }
  } catch {
    // The client went away; there is no one left to answer.
  } finally {
    reader.releaseLock();
  }
}

export function bodyLimitDrained(
  maxBytes: number,
  onTooLarge: (c: Context) => Response,
): MiddlewareHandler {
  // Bodies without Content-Length (chunked) are counted as they stream by hono's middleware.
  const streaming = bodyLimit({ maxSize: maxBytes, onError: onTooLarge });
  return async (c, next) => {
    const declared = Number(c.req.header('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      if (declared <= drainCap(maxBytes)) await discard(c.req.raw.body, drainCap(maxBytes));
      return onTooLarge(c);
    }
    return streaming(c, next);
  };
}
