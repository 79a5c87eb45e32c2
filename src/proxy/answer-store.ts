// Where the proxy keeps answers for --ttl-s: a bounded in-memory LRU first, then, with
// --cache, the store the replicas already share, so several proxies (or one restarted) reuse
// each other's answers. Redis: `rubrica:proxy:<key>` written with SET PX NX, so Redis itself
// drops an answer when its time is up. SQLite: a table `proxy_answers` of its own in the
// file, the expiry beside each answer (an expired row is a miss). Neither touches the
// replicas' answer cache (`rubrica:answer:*`, table `answers`). A shared store that fails
// is a miss (the judge is asked).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { CacheError } from '../store/cache-error.ts';
import { isRedisUrl, redisConnection } from '../store/redis-cache.ts';
import { ByteLru } from './byte-lru.ts';

/** A kept upstream answer: always a 200, its bytes and content type. */
export interface StoredAnswer {
  contentType: string;
  body: Buffer;
}

export interface AnswerStore {
  get(key: string): Promise<StoredAnswer | undefined>;
  /** Answers found in memory only (no I/O): what joiners of a just-finished flight read. */
  peek(key: string): StoredAnswer | undefined;
  set(key: string, answer: StoredAnswer): Promise<void>;
  close(): Promise<void>;
  /** Bytes of answers kept in memory now. */
  readonly memoryBytes: number;
}

export interface AnswerStoreOptions {
  ttlMs: number;
  /** Answers kept in memory at most (least recently used dropped first). Default 4096. */
  memoryEntries?: number;
  /** Bytes of answers kept in memory at most (--cache-mb). Default 256 MiB. */
  memoryBytes?: number;
  /** redis://… or a SQLite path; none: memory only. */
  shared?: string;
  now?: () => number;
  /** A shared-store fault (degraded to a miss / a skipped write). */
  onFault?: (op: 'read' | 'write', err: unknown) => void;
}

/** Redis key of an answer: a prefix of its own, apart from the replicas' `rubrica:answer:`. */
export const PROXY_PREFIX = 'rubrica:proxy:';

type Wire = { t: string; b: string; exp: number };

interface Shared {
  get(key: string): Promise<Wire | undefined>;
  set(key: string, w: Wire, ttlMs: number): Promise<void>;
  close(): Promise<void>;
}

function redisShared(url: string): Shared {
  const redis = redisConnection(url);
  redis.on('error', () => {});
  redis.connect().catch(() => {});
  return {
    async get(key) {
      const raw = await redis.get(PROXY_PREFIX + key);
      return raw === null ? undefined : (JSON.parse(raw) as Wire);
    },
    async set(key, w, ttlMs) {
      await redis.set(PROXY_PREFIX + key, JSON.stringify(w), 'PX', ttlMs, 'NX');
    },
    async close() {
      redis.disconnect();
    },
  };
}

function sqliteShared(path: string): Shared {
  // The replicas' answer cache keeps entries for ever (INSERT OR IGNORE, no expiry), so the
  // proxy's answers get a table of their own in the file, replaced when they expire.
  let db: Database.Database;
  try {
    mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 10000');
    db.exec(
      'CREATE TABLE IF NOT EXISTS proxy_answers (key TEXT PRIMARY KEY, value TEXT NOT NULL, exp INTEGER NOT NULL) WITHOUT ROWID',
    );
  } catch (err) {
    // A file that cannot be a cache is refused at start, in one line naming it.
    throw new CacheError(
      path,
      'cannot be opened',
      err,
      'move or delete the file, point --cache at another file, or leave --cache out (answers then kept in memory only)',
    );
  }
  const getStmt = db.prepare<[string], { value: string }>(
    'SELECT value FROM proxy_answers WHERE key = ?',
  );
  const setStmt = db.prepare<[string, string, number], unknown>(
    'INSERT OR REPLACE INTO proxy_answers (key, value, exp) VALUES (?, ?, ?)',
  );
  const sweep = db.prepare<[number], unknown>('DELETE FROM proxy_answers WHERE exp <= ?');
  let writes = 0;
  return {
    async get(key) {
      const row = getStmt.get(key);
      return row ? (JSON.parse(row.value) as Wire) : undefined;
    },
    async set(key, w) {
      setStmt.run(key, JSON.stringify(w), w.exp);
      // Expired rows are dropped now and then, so the table stays about one TTL's worth.
      if (++writes % 256 === 0) sweep.run(Date.now());
    },
    async close() {
      db.close();
    },
  };
}

export function createAnswerStore(o: AnswerStoreOptions): AnswerStore {
  const now = o.now ?? Date.now;
  const memory = new ByteLru<{ a: StoredAnswer; exp: number; size: number }>(
    o.memoryBytes ?? 256 * 1024 * 1024,
    o.memoryEntries ?? 4096,
  );
  const shared = o.shared
    ? isRedisUrl(o.shared)
      ? redisShared(o.shared)
      : sqliteShared(o.shared)
    : undefined;
  const fault = (op: 'read' | 'write', err: unknown) => o.onFault?.(op, err);
  const peek = (key: string) => {
    const m = memory.get(key);
    return m && m.exp > now() ? m.a : undefined;
  };
  return {
    get memoryBytes() {
      return memory.bytes;
    },
    peek,
    async get(key) {
      const m = peek(key);
      if (m || !shared) return m;
      let w: Wire | undefined;
      try {
        w = await shared.get(key);
      } catch (err) {
        fault('read', err);
        return undefined;
      }
      if (!w || w.exp <= now()) return undefined;
      const a = { contentType: w.t, body: Buffer.from(w.b, 'base64') };
      memory.set(key, { a, exp: w.exp, size: a.body.byteLength });
      return a;
    },
    async set(key, a) {
      const exp = now() + o.ttlMs;
      memory.set(key, { a, exp, size: a.body.byteLength });
      if (!shared) return;
      try {
        await shared.set(key, { t: a.contentType, b: a.body.toString('base64'), exp }, o.ttlMs);
      } catch (err) {
        fault('write', err);
      }
    },
    async close() {
      await shared?.close();
    },
  };
}
