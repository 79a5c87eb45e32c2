// What is retried, and how retry-after is read.
import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { classifyError, isRetryable, parseRetryAfter } from './retry-policy.ts';

const calm = { timedOut: false, aborted: false, timeoutMs: 1000 };
const apiError = (statusCode: number | undefined, headers?: Record<string, string>) =>
  new APICallError({
    message: 'x',
    url: 'http://h',
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
  });

describe('retry policy', () => {
  it('retries 408, 409, 429 and 5xx only', () => {
    const retried = [408, 409, 429, 500, 502, 503, 504].map((status) =>
      isRetryable({ code: 'http_error', status, message: '' }),
    );
    expect(retried.every(Boolean)).toBe(true);
    for (const status of [400, 401, 403, 404, 413, 422]) {
      expect(isRetryable({ code: 'http_error', status, message: '' })).toBe(false);
    }
    for (const code of ['timeout', 'network', 'bad_response', 'invalid_answer'] as const) {
      expect(isRetryable({ code, message: '' })).toBe(true);
    }
    expect(isRetryable({ code: 'aborted', message: '' })).toBe(false);
  });

  it('reads retry-after-ms, seconds and dates', () => {
    expect(parseRetryAfter({ 'retry-after': '2' })).toBe(2000);
    expect(parseRetryAfter({ 'Retry-After': '0.5' })).toBe(500);
    expect(parseRetryAfter({ 'retry-after-ms': '150', 'retry-after': '9' })).toBe(150);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }, now)).toBe(3000);
    expect(parseRetryAfter({ 'retry-after': 'soon' })).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': '-1' })).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });

  it('classifies SDK errors', () => {
    expect(classifyError(apiError(429, { 'retry-after': '1' }), calm)).toMatchObject({
      error: { code: 'http_error', status: 429 },
      retryAfterMs: 1000,
    });
    expect(classifyError(apiError(undefined), calm).error.code).toBe('network');
    expect(classifyError(apiError(200), calm).error.code).toBe('bad_response');
    expect(classifyError(new Error('x'), { ...calm, timedOut: true }).error.code).toBe('timeout');
    expect(
      classifyError(new Error('x'), { ...calm, aborted: true, timedOut: true }).error.code,
    ).toBe('aborted');
  });
});
