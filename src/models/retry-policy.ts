// The one place that decides what a failed model call was and whether to try again.
// Retried: HTTP 408/409/429/5xx, timeouts, network errors, malformed responses, and answers
// that fail validation. Not retried: other 4xx (bad key, bad request) and caller aborts.
import { AISDKError, APICallError } from 'ai';
import type { ModelCallError } from './types.ts';

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

export function isRetryable(error: ModelCallError): boolean {
  switch (error.code) {
    case 'http_error':
      return error.status !== undefined && isRetryableStatus(error.status);
    case 'aborted':
    case 'circuit_open': // retrying at once is what the breaker exists to stop
      return false;
    default:
      return true; // timeout, network, bad_response, invalid_answer
  }
}

/**
 * Milliseconds the server asked us to wait: `retry-after-ms` (OpenAI), `retry-after` in
 * seconds or as an HTTP date. Undefined when absent or unreadable.
 */
export function parseRetryAfter(
  headers: Record<string, string | undefined> | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const get = (name: string) =>
    Object.entries(headers)
      .find(([k]) => k.toLowerCase() === name)?.[1]
      ?.trim();
  const ms = Number(get('retry-after-ms'));
  if (get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface ClassifiedFailure {
  error: ModelCallError;
  /** The server's requested wait, if any (capped by the caller). */
  retryAfterMs?: number;
}

/**
 * Turns whatever the AI SDK threw into a ModelCallError. `timedOut` / `aborted` say which
 * of our signals fired, since an abort surfaces as the same DOMException either way.
 */
export function classifyError(
  err: unknown,
  signals: { timedOut: boolean; aborted: boolean; timeoutMs: number },
): ClassifiedFailure {
  if (signals.aborted) return { error: { code: 'aborted', message: 'the call was aborted' } };
  if (signals.timedOut) {
    return { error: { code: 'timeout', message: `no answer within ${signals.timeoutMs} ms` } };
  }
  const message = err instanceof Error ? err.message : String(err);
  if (APICallError.isInstance(err)) {
    const status = err.statusCode;
    if (status === undefined) return { error: { code: 'network', message } };
    if (status >= 200 && status < 300) {
      // The server said OK but the body was not a chat response (malformed JSON, no choices).
      return { error: { code: 'bad_response', message, status } };
    }
    const retryAfterMs = parseRetryAfter(err.responseHeaders);
    const body = err.responseBody ? `: ${err.responseBody.slice(0, 300)}` : '';
    const out: ClassifiedFailure = {
      error: { code: 'http_error', status, message: `HTTP ${status} ${message}${body}` },
    };
    if (retryAfterMs !== undefined) out.retryAfterMs = retryAfterMs;
    return out;
  }
  if (AISDKError.isInstance(err)) {
    // JSONParseError, TypeValidationError, InvalidResponseDataError, EmptyResponseBodyError…
    return { error: { code: 'bad_response', message } };
  }
  return { error: { code: 'network', message } };
}
