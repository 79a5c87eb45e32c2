// The identity of a judge request at the proxy: two requests with the same key would get the
// same answer from the judge, so one upstream call may answer both. The key hashes the
// upstream, the path, the credentials and provider headers that change the answer or who pays
// for it, and the raw body bytes — never a parsed form: rubrica's replicas send byte-identical
// bodies for the same rollout (checked across two `rubrica serve` processes), and a body that
// differs by one byte is another request.
import { createHash } from 'node:crypto';

/** Request headers that take part in the key (credentials and the Anthropic API version). */
export const KEY_HEADERS = ['authorization', 'x-api-key', 'anthropic-version', 'anthropic-beta'];

export interface KeyParts {
  upstream: string;
  /** The path after the proxy's prefix, e.g. `/chat/completions`. */
  path: string;
  /** Header values by lower-case name (only KEY_HEADERS are read). */
  headers: Readonly<Record<string, string | undefined>>;
  body: Uint8Array;
}

/** sha256 hex over the parts, each length-prefixed so no two splits of one string collide. */
export function proxyKey(p: KeyParts): string {
  const h = createHash('sha256');
  const part = (s: string | Uint8Array) => {
    const b = typeof s === 'string' ? Buffer.from(s, 'utf8') : s;
    h.update(`${b.byteLength}:`);
    h.update(b);
  };
  part(p.upstream);
  part(p.path);
  for (const name of KEY_HEADERS) part(p.headers[name] ?? '');
  part(p.body);
  return h.digest('hex');
}
