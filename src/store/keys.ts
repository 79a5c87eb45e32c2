// Cache keys: a sha256 over a canonical JSON array of every input that shapes an answer.
import { createHash } from 'node:crypto';

export function cacheKey(parts: readonly (string | number | null)[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}
