// Cache keys: a sha256 over a canonical JSON array of every input that shapes an answer.
import { createHash } from 'node:crypto';

export function cacheKey(parts: readonly (string | number | null)[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** What a model client must say about itself for its answers to be keyed. */
export interface AskedModel {
  spec: { provider: string; model: string };
  baseUrl?: string;
}

/**
 * The model an answer came from, as key parts: provider, model and the server's base URL.
 * Two servers may serve the same name with different weights, quantisation or chat
 * templates, so `--judge-base-url` elsewhere must never reuse another server's answers.
 */
export function modelKeyParts(client: AskedModel): string[] {
  return [client.spec.provider, client.spec.model, client.baseUrl ?? ''];
}
