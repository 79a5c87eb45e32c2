// The Redis answer cache against a real redis-server: the same keys and values as SQLite,
// first writer wins, shared between two openers (two replicas), a Redis that dies mid-run
// degrades to misses that are counted (the judge is asked), and one that cannot be reached
// at start is a CacheError.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisProcess, startRedis } from '../../test/support/redis-server.ts';
import { openCache } from './cache.ts';
import { CacheError } from './cache-error.ts';
import { cacheKey } from './keys.ts';
import { openAnswerCache } from './open-cache.ts';
import { cacheFaults, checkRedisCache, openRedisCache, redactUrl } from './redis-cache.ts';

let redis: RedisProcess;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

describe('Redis answer cache', () => {
  it('stores what SQLite stores, under the same key; first writer wins; shared by openers', async () => {
    const key = cacheKey(['judge', 'm', 'v1', 'picture-sha']);
    const answer = { items: [{ key: 'a', pass: true }], note: 'ü' };
    const a = openAnswerCache(redis.url);
    const b = openAnswerCache(redis.url);
    const sqlite = openCache(join(mkdtempSync(join(tmpdir(), 'rubrica-rc-')), 'c.sqlite'));
    expect(await a.get('judge', key)).toBeUndefined();
    await a.set('judge', key, answer);
    await b.set('judge', key, { other: 1 }); // a racing writer of the same key loses
    sqlite.set('judge', key, answer);
    expect(await b.get('judge', key)).toEqual(answer);
    expect(await b.get('judge', key)).toEqual(sqlite.get('judge', key));
    expect(await b.get('author', key)).toBeUndefined(); // kinds do not mix
    expect(await a.count('judge')).toBe(1);
    await a.close();
    await b.close();
    sqlite.close();
  });

  it('a start against nothing listening is a CacheError naming the URL without its password', async () => {
    const dead = 'redis://user:s3cret@127.0.0.1:1/0';
    const err = await checkRedisCache(dead, 500).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CacheError);
    expect((err as CacheError).code).toBe('cache_error');
    expect((err as CacheError).message).toContain('redis://***@127.0.0.1:1/0 cannot be reached');
    expect((err as CacheError).message).not.toContain('s3cret');
    expect(redactUrl(dead)).toBe('redis://***@127.0.0.1:1/0');
  });

  it('a Redis that dies mid-run: reads are misses, writes are skipped, both counted', async () => {
    const own = await startRedis();
    const seen: string[] = [];
    const cache = openRedisCache(own.url, {
      commandTimeoutMs: 300,
      onFault: (op) => seen.push(op),
    });
    await cache.set('judge', 'k1', { v: 1 });
    expect(await cache.get('judge', 'k1')).toEqual({ v: 1 });
    const before = { ...cacheFaults() };
    await own.stop(true); // a crash, not a shutdown
    expect(await cache.get('judge', 'k1')).toBeUndefined(); // a miss: the judge is asked
    await cache.set('judge', 'k2', { v: 2 }); // never throws
    expect(cacheFaults().read).toBe(before.read + 1);
    expect(cacheFaults().write).toBe(before.write + 1);
    expect(seen).toEqual(['read', 'write']);
    await cache.close();
  });
});
