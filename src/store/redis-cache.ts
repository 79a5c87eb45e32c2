// The answer cache in Redis, shared by every replica and batch process pointed at it: the
// same content-addressed keys (src/store/keys.ts) and the same JSON values as the SQLite
// cache, so an answer judged by one replica is a hit on all the others. SET NX makes racing
// writers of one key harmless (both computed the same answer).
//
// Unlike a damaged SQLite file, a Redis that goes away mid-run is an outage of a shared
// service, not damaged data: a read that fails is a miss (the judge is asked, the reward is
// still right), a write that fails is skipped. Each such fault is logged once per burst and
// counted (cacheFaults(), exported on /metrics as rubrica_cache_faults_total). Reachability
// at start is checked by checkRedisCache, so a wrong URL is one clear error, not a run that
// silently judges everything again.
import { Redis } from 'ioredis';
import type { AnswerCache, CacheKind } from './cache.ts';
import { CacheError } from './cache-error.ts';

/** Where the answers live in Redis: `rubrica:answer:<kind>:<sha256 key>`. */
export const REDIS_PREFIX = 'rubrica:answer:';

/** True for a `--cache` value that names a Redis server rather than a SQLite file. */
export function isRedisUrl(spec: string): boolean {
  return /^rediss?:\/\//.test(spec);
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

/** Faults of shared caches in this process, by operation (read/write), since start. */
const faults = { read: 0, write: 0 };

/** How many Redis cache reads and writes failed (and were degraded) in this process. */
export function cacheFaults(): Readonly<{ read: number; write: number }> {
  return faults;
}

/** Options of the Redis cache (tests shorten the timeouts). */
export interface RedisCacheOptions {
  /** A command not answered within this many ms is a fault (default 1000). */
  commandTimeoutMs?: number;
  /** Where degraded faults are reported (default: one line on stderr per burst). */
  onFault?: (op: 'read' | 'write', err: unknown) => void;
}

/** The connection options both the cache and the shared judge budget use. */
export function redisConnection(url: string, commandTimeoutMs = 1000): Redis {
  return new Redis(url, {
    lazyConnect: true,
    // A command waits at most commandTimeoutMs, queued or on the wire, then fails: the
    // caller degrades rather than stalls the training step behind a dead Redis.
    commandTimeout: commandTimeoutMs,
    maxRetriesPerRequest: 1,
    // Keep reconnecting in the background (capped at 2 s): Redis coming back heals the run.
    retryStrategy: (times) => Math.min(2000, 50 * times),
  });
}

function stderrFault(): (op: 'read' | 'write', err: unknown) => void {
  let last = 0;
  return (op, err) => {
    const now = Date.now();
    if (now - last < 10_000) return; // one line per burst, not one per rollout
    last = now;
    const msg = err instanceof Error ? err.message : String(err);
    process.stderr.write(
      `rubrica: shared answer cache ${op} failed (${msg}); asking the judge instead\n`,
    );
  };
}

/**
 * Opens the Redis answer cache at `url` (redis://host:port/db). Connects in the background;
 * call checkRedisCache first to refuse an unreachable server at start.
 */
export function openRedisCache(url: string, opts: RedisCacheOptions = {}): AnswerCache {
  const redis = redisConnection(url, opts.commandTimeoutMs);
  // ioredis emits 'error' on every failed reconnect; the faults are counted where they
  // matter (a command), so the event only needs a listener to not crash the process.
  redis.on('error', () => {});
  redis.connect().catch(() => {});
  const report = opts.onFault ?? stderrFault();
  const fault = (op: 'read' | 'write', err: unknown) => {
    faults[op] += 1;
    report(op, err);
  };
  const k = (kind: CacheKind, key: string) => `${REDIS_PREFIX}${kind}:${key}`;
  return {
    async get<T>(kind: CacheKind, key: string): Promise<T | undefined> {
      let raw: string | null;
      try {
        raw = await redis.get(k(kind, key));
      } catch (err) {
        fault('read', err);
        return undefined;
      }
      if (raw === null) return undefined;
      try {
        return JSON.parse(raw) as T;
      } catch (err) {
        // Not written by this cache: never reuse it, ask the judge again.
        fault('read', err);
        return undefined;
      }
    },
    async set(kind, key, value) {
      try {
        await redis.set(k(kind, key), JSON.stringify(value), 'NX');
      } catch (err) {
        fault('write', err);
      }
    },
    async count(kind) {
      let n = 0;
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(
          cursor,
          'MATCH',
          `${REDIS_PREFIX}${kind}:*`,
          'COUNT',
          1000,
        );
        cursor = next;
        n += keys.length;
      } while (cursor !== '0');
      return n;
    },
    async close() {
      redis.disconnect();
    },
  };
}

/**
 * Throws CacheError (code cache_error) when the Redis at `url` does not answer a PING within
 * `timeoutMs`: a shared cache that cannot be reached at start is a clear error.
 */
export async function checkRedisCache(url: string, timeoutMs = 3000): Promise<void> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new CacheError(redactUrl(url), 'cannot be reached', err);
  } finally {
    redis.disconnect();
  }
}
