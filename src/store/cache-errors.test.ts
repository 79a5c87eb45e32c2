// Damaged cache files are clear errors naming the file and the way around it (--no-cache),
// never a bare SQLite error: truncated or not-a-database at open, corrupted pages on read.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corruptDataPages, fillCache, truncateCache } from '../../test/support/broken-cache.ts';
import { RubricaError } from '../core/errors.ts';
import { openCache } from './cache.ts';
import { CacheError } from './cache-error.ts';

const fresh = () => join(mkdtempSync(join(tmpdir(), 'rubrica-badcache-')), 'cache.sqlite');

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('damaged cache files', () => {
  it('a truncated file is refused at open, naming the file and --no-cache', () => {
    const path = fresh();
    fillCache(path);
    truncateCache(path);
    const err = thrown(() => openCache(path));
    expect(err).toBeInstanceOf(CacheError);
    expect(err).toBeInstanceOf(RubricaError);
    const e = err as CacheError;
    expect(e.code).toBe('cache_error');
    expect(e.path).toBe(path);
    expect(e.message).toContain(path);
    expect(e.message).toMatch(/truncated/);
    expect(e.message).toContain('--no-cache');
  });

  it('a file cut inside its header is truncated too', () => {
    const path = fresh();
    fillCache(path);
    truncateCache(path, 0);
    writeFileSync(path, 'SQLite format');
    expect((thrown(() => openCache(path)) as Error).message).toMatch(/truncated/);
  });

  it('a file that is not a database is refused at open', () => {
    const path = fresh();
    writeFileSync(path, 'this is a text file, not a cache\n'.repeat(20));
    const e = thrown(() => openCache(path)) as CacheError;
    expect(e).toBeInstanceOf(CacheError);
    expect(e.sqliteCode).toBe('SQLITE_NOTADB');
    expect(e.message).toContain('--no-cache');
  });

  it('corrupted data pages open, then every read is a CacheError (not retryable)', () => {
    const path = fresh();
    fillCache(path);
    corruptDataPages(path);
    const cache = openCache(path);
    try {
      const e = thrown(() => cache.get('judge', 'key-7')) as CacheError;
      expect(e).toBeInstanceOf(CacheError);
      expect(e.sqliteCode).toBe('SQLITE_CORRUPT');
      expect(e.isRetryable).toBe(false);
      expect(e.message).toContain(path);
    } finally {
      cache.close();
    }
  });

  it('an intact file still opens and reads', () => {
    const path = fresh();
    fillCache(path, 50);
    const cache = openCache(path);
    expect(cache.get<{ i: number }>('judge', 'key-42')?.i).toBe(42);
    cache.close();
  });
});
