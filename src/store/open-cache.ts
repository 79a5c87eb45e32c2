// One entry point for `--cache`: a redis:// URL opens the shared Redis cache, anything else
// is the SQLite file it has always been. Both speak the AnswerCache interface.
import { type AnswerCache, DEFAULT_CACHE_PATH, openCache } from './cache.ts';
import { checkRedisCache, isRedisUrl, openRedisCache } from './redis-cache.ts';

/**
 * Opens the answer cache named by `spec`: `redis://host:port/db` (shared by replicas) or a
 * SQLite file path (the embedded default).
 * @example
 * ```ts
 * const cache = openAnswerCache('.rubrica/cache.sqlite');
 * ```
 */
export function openAnswerCache(spec: string = DEFAULT_CACHE_PATH): AnswerCache {
  return isRedisUrl(spec) ? openRedisCache(spec) : openCache(spec);
}

/**
 * Resolves when the cache named by `spec` can be used; for Redis, throws CacheError when the
 * server does not answer at start (SQLite files are checked when opened).
 */
export async function checkAnswerCache(spec: string | false): Promise<void> {
  if (spec !== false && isRedisUrl(spec)) await checkRedisCache(spec);
}
