// Bearer-token authentication for the reward server. Written here rather than taken from
// hono's bearerAuth because a trainer's operator needs each refusal to be a 401 that says
// what is wrong (no header, another scheme such as Basic, a malformed header, a wrong
// token) — hono answers a Basic header with 400 — and because a token that could never
// appear in a bearer header must be refused when the server starts, not on every request.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { errorBody } from '../core/error-body.ts';
import { ServerConfigError } from './config-error.ts';

/** RFC 6750 b64token: the characters a bearer token may hold. */
const B64TOKEN = /^[A-Za-z0-9._~+/-]+=*$/;

/** Throws ServerConfigError when `token` cannot be used as a bearer token. */
export function validateToken(token: string): void {
  if (token === '') {
    throw new ServerConfigError(
      'empty_token',
      'the token is empty; give a non-empty --token / RUBRICA_TOKEN, or unset it',
    );
  }
  if (!B64TOKEN.test(token)) {
    throw new ServerConfigError(
      'bad_token',
      'the token holds characters that cannot appear in an "Authorization: Bearer" header; ' +
        'use letters, digits and - . _ ~ + / (e.g. `openssl rand -hex 32`)',
    );
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest();

function refuse(c: Context, message: string, error: 'invalid_request' | 'invalid_token') {
  c.header('WWW-Authenticate', `Bearer realm="rubrica", error="${error}"`);
  return c.json(errorBody('unauthorized', message), 401);
}

/** Requires `Authorization: Bearer <token>` (or `X-API-Key: <token>`) on every route but those in `open`. */
export function bearerAuth(token: string, open: ReadonlySet<string>): MiddlewareHandler {
  validateToken(token);
  const expected = digest(token);
  return async (c, next) => {
    if (open.has(c.req.path)) return next();
    const header = c.req.header('authorization');
    // The OpenReward Standard's clients send the credential as X-API-Key, never as a bearer
    // header (openreward 0.1.112, ors python-sdk a399408): either is accepted.
    const apiKey = c.req.header('x-api-key')?.trim();
    if ((header === undefined || header.trim() === '') && apiKey) {
      if (timingSafeEqual(digest(apiKey), expected)) return next();
      return refuse(
        c,
        'the X-API-Key is not the token this server was started with',
        'invalid_token',
      );
    }
    if (header === undefined || header.trim() === '') {
      return refuse(c, 'missing "Authorization: Bearer <token>" header', 'invalid_request');
    }
    const [scheme = '', ...rest] = header.trim().split(/\s+/);
    if (scheme.toLowerCase() !== 'bearer') {
      return refuse(
        c,
        `Authorization scheme "${scheme}" is not accepted; send "Authorization: Bearer <token>"`,
        'invalid_request',
      );
    }
    const given = rest.join(' ');
    if (rest.length !== 1 || !B64TOKEN.test(given)) {
      return refuse(
        c,
        'malformed Authorization header: expected "Bearer <token>"',
        'invalid_request',
      );
    }
    // Compare digests so the comparison takes the same time whatever the token's length.
    if (!timingSafeEqual(digest(given), expected)) {
      return refuse(
        c,
        'the bearer token is not the one this server was started with',
        'invalid_token',
      );
    }
    return next();
  };
}
