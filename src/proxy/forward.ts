// One upstream call: the request's body and the headers a provider needs go to
// `<upstream><tail>`, nothing else (no cookies, no client hop headers, no accept-encoding —
// the answer comes back as plain bytes, so what is cached is what any client can read).
// A non-streaming call is read whole and is NOT tied to the client: it ends when the judge
// answers or `timeoutMs` passes. An upstream that cannot be reached is an answer too — a 502
// in the provider's own error shape, so the replica's client reads it as a server error and
// retries — with a stable code.

/** Request headers passed to the judge (credentials, API version, body type). */
export const FORWARDED_HEADERS = [
  'authorization',
  'x-api-key',
  'anthropic-version',
  'anthropic-beta',
  'content-type',
] as const;

/** Answer headers passed back to the client. */
const RETURNED_HEADERS = ['content-type', 'retry-after'] as const;

/** What the judge said (or what the proxy says for it): status, headers, whole body. */
export interface UpstreamAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type ProxyErrorCode =
  | 'upstream_unreachable'
  | 'upstream_timeout'
  | 'answer_too_large'
  | 'queue_full'
  | 'body_budget'
  | 'body_timeout'
  | 'draining'
  | 'body_too_large'
  | 'not_found'
  | 'unauthorized'
  | 'internal_error';

/** An error answer in the shape the path's provider uses (Anthropic for /messages). */
export function providerError(
  path: string,
  status: number,
  code: ProxyErrorCode,
  message: string,
): UpstreamAnswer {
  const anthropic = path.endsWith('/messages');
  const body = anthropic
    ? { type: 'error', error: { type: code, message } }
    : { error: { message, type: code, code } };
  return {
    status,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
  };
}

export interface ForwardRequest {
  upstream: string;
  /** The tail after the proxy's prefix, with its query, e.g. `/chat/completions`. */
  tail: string;
  method: 'GET' | 'POST';
  headers: Readonly<Record<string, string | undefined>>;
  body?: Uint8Array;
}

function pick(
  from: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) {
    const v = from[n];
    if (v !== undefined) out[n] = v;
  }
  return out;
}

function init(r: ForwardRequest, signal: AbortSignal): RequestInit {
  const out: RequestInit = {
    method: r.method,
    headers: pick(r.headers, FORWARDED_HEADERS),
    signal,
  };
  if (r.body && r.method === 'POST') out.body = r.body;
  return out;
}

const url = (r: ForwardRequest) => `${r.upstream.replace(/(?<!\/)\/+$/, '')}${r.tail}`;

/**
 * An upstream URL as it may appear in an answer or a log line: scheme, host and port only.
 * Userinfo, path and query may hold a key (`/v1/<token>`, `?key=`), so they never appear.
 */
export function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}${u.pathname === '/' && !u.search ? '' : '/…'}`;
  } catch {
    return '(upstream)';
  }
}

/** Any URL inside a message (an error's cause may quote one), redacted. */
export const scrubUrls = (text: string) =>
  // The whole run of scheme characters is matched, from its start only (the lookbehind), and
  // the URL begins at its first letter: the former /[a-z][a-z0-9+.-]*:\/\/…/ was retried from
  // each letter of a long word with no "://" (quadratic).
  text.replace(/(?<![a-z0-9+.-])[a-z0-9+.-]+:\/\/[^\s)"'>]+/gi, (m) => {
    const letter = m.search(/[a-z]/i);
    if (letter < 0 || letter > m.indexOf('://')) return m;
    return m.slice(0, letter) + redactUrl(m.slice(letter));
  });

/** Reads a body whole, or undefined (and the read cancelled) past `max` bytes. */
async function readCapped(res: Response, max: number): Promise<Buffer | undefined> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!res.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    size += r.value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(r.value);
  }
  return Buffer.concat(chunks, size);
}

/** The whole answer of one upstream attempt; never throws (unreachable/timeout are answers). */
export async function forward(
  r: ForwardRequest,
  timeoutMs: number,
  maxAnswerBytes = Number.POSITIVE_INFINITY,
): Promise<UpstreamAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(url(r), init(r, signal));
    const body = await readCapped(res, maxAnswerBytes);
    if (!body) {
      return providerError(
        r.tail,
        502,
        'answer_too_large',
        `the judge's answer is over ${maxAnswerBytes} bytes (--max-answer-mb); not kept`,
      );
    }
    const headers: Record<string, string> = {};
    for (const n of RETURNED_HEADERS) {
      const v = res.headers.get(n);
      if (v !== null) headers[n] = v;
    }
    return { status: res.status, headers, body };
  } catch (err) {
    if (signal.aborted) {
      return providerError(
        r.tail,
        504,
        'upstream_timeout',
        `the judge did not answer within ${timeoutMs} ms`,
      );
    }
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (err as Error).message;
    return providerError(
      r.tail,
      502,
      'upstream_unreachable',
      `the judge at ${redactUrl(r.upstream)} cannot be reached (${scrubUrls(String(why))})`,
    );
  }
}

/**
 * A streaming call piped as it comes: tied to the client (`clientSignal`), since nobody else
 * can use a stream half-read. Returns the upstream Response, or an error answer.
 */
export async function forwardStream(
  r: ForwardRequest,
  timeoutMs: number,
  clientSignal: AbortSignal,
): Promise<Response> {
  // The timeout bounds the wait for the answer's headers; the stream then runs while it flows.
  const connect = new AbortController();
  const timer = setTimeout(() => connect.abort(), timeoutMs);
  const signal = AbortSignal.any([clientSignal, connect.signal]);
  try {
    const res = await fetch(url(r), init(r, signal));
    clearTimeout(timer);
    const headers = new Headers();
    for (const n of [...RETURNED_HEADERS, 'cache-control'] as const) {
      const v = res.headers.get(n);
      if (v !== null) headers.set(n, v);
    }
    return new Response(res.body, { status: res.status, headers });
  } catch (err) {
    clearTimeout(timer);
    const a = connect.signal.aborted
      ? providerError(
          r.tail,
          504,
          'upstream_timeout',
          `the judge did not answer within ${timeoutMs} ms`,
        )
      : providerError(
          r.tail,
          502,
          'upstream_unreachable',
          `the judge at ${redactUrl(r.upstream)} cannot be reached (${scrubUrls((err as Error).message)})`,
        );
    return new Response(new Uint8Array(a.body), { status: a.status, headers: a.headers });
  }
}
