// Who can reach the server. A reward server on a non-loopback address without a token lets
// anyone on the network spend the judge's GPUs and read rubric prompts, so it refuses to
// start unless the operator says `--insecure` on purpose.
import { isIP } from 'node:net';
import { validateToken } from './auth.ts';
import { ServerConfigError } from './config-error.ts';

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || /^::ffff:127\./.test(h);
  return false;
}

export interface Exposure {
  host: string;
  token?: string | undefined;
  /** Serve a non-loopback address without a token anyway. */
  insecure?: boolean;
  /** What an open server would put at risk, for the refusal; the reward server's by default. */
  risk?: string;
}

/** Throws ServerConfigError when the token is unusable or the server would be open to all. */
export function checkExposure(e: Exposure): void {
  if (e.token !== undefined) validateToken(e.token);
  if (e.token === undefined && !isLoopback(e.host) && !e.insecure) {
    throw new ServerConfigError(
      'exposed_without_token',
      `refusing to serve ${e.host} without a token: ${e.risk ?? 'anyone who can reach it could use the judge'}. ` +
        'Set --token (or RUBRICA_TOKEN), bind 127.0.0.1, or pass --insecure if the network is private',
    );
  }
}
