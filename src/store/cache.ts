// A content-addressed answer cache in SQLite: model answers are stored under a key that
// hashes everything that could change them (model, server, prompt-file version, mode,
// rubric, image), so a hit is always safe to reuse. WAL mode plus a busy timeout lets
// several processes write the same file; INSERT OR IGNORE makes racing writers of one key
// harmless (both computed the same answer). Every SQLite failure leaves as a CacheError
// naming the file (src/store/cache-error.ts), never as a bare driver error.
import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { checkRegularFileSync } from '../core/read-input-text.ts';
import { CacheError } from './cache-error.ts';

/** Where the answer cache lives unless told otherwise (relative to the working directory). */
export const DEFAULT_CACHE_PATH = '.rubrica/cache.sqlite';

export type CacheKind = 'judge' | 'author';

/** A value now (SQLite) or later (Redis): callers always `await` it. */
export type Awaitable<T> = T | Promise<T>;

/**
 * Model answers by content key (judge and author), one interface over two stores: SQLite
 * (embedded, synchronous; a broken file throws CacheError, so a cache fault is never
 * mistaken for a miss) and Redis (shared by replicas; see redis-cache.ts, which degrades a
 * fault mid-run to a miss instead, so the judge is asked). Callers `await` every method.
 */
export interface AnswerCache {
  /** Throws CacheError when the file cannot be read (corrupted, truncated, I/O error). */
  get<T>(kind: CacheKind, key: string): Awaitable<T | undefined>;
  /** Throws CacheError when the answer cannot be written. */
  set(kind: CacheKind, key: string, value: unknown): Awaitable<void>;
  /** Number of stored entries of a kind (tests, reports). */
  count(kind: CacheKind): Awaitable<number>;
  close(): Awaitable<void>;
}

/** The SQLite store: the same interface, answered synchronously. */
export interface SqliteAnswerCache extends AnswerCache {
  get<T>(kind: CacheKind, key: string): T | undefined;
  set(kind: CacheKind, key: string, value: unknown): void;
  count(kind: CacheKind): number;
  close(): void;
}

/**
 * A file shorter than the pages its header declares was cut off (a copy interrupted, a
 * full disk). SQLite would only notice when a query reaches a missing page, mid-run; the
 * header check costs one small read and finds it at start-up. The main file's header is
 * written at checkpoints together with the pages it counts, so WAL mode does not fool it.
 */
function checkNotTruncated(path: string): void {
  if (path === ':memory:' || !existsSync(path)) return;
  // --cache naming a FIFO blocked openSync below for ever (issue 35): input_not_regular_file.
  checkRegularFileSync(path);
  const size = statSync(path).size;
  if (size === 0) return; // a new, empty file: SQLite will initialise it
  const head = Buffer.alloc(100);
  const fd = openSync(path, 'r');
  let read = 0;
  try {
    read = readSync(fd, head, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  const magic = 'SQLite format 3\0';
  const start = head.toString('latin1', 0, Math.min(read, magic.length));
  if (read < 100) {
    if (magic.startsWith(start)) {
      throw new CacheError(path, `is truncated (${size} bytes on disk, shorter than its header)`);
    }
    return; // not SQLite at all: SQLite itself says so (SQLITE_NOTADB)
  }
  if (start !== magic) return;
  const rawPageSize = head.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
  const pages = head.readUInt32BE(28);
  // The page count is valid only when the change counter matches "version-valid-for".
  const valid = head.readUInt32BE(24) === head.readUInt32BE(92);
  if (valid && size < pages * pageSize) {
    throw new CacheError(
      path,
      `is truncated (${size} bytes on disk, its header declares ${pages * pageSize})`,
    );
  }
}

function openDatabase(path: string): Database.Database {
  if (path !== ':memory:') {
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (err) {
      throw new CacheError(path, 'cannot be created', err);
    }
  }
  let db: Database.Database | undefined;
  try {
    checkNotTruncated(path);
    db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 10000');
    db.pragma('synchronous = NORMAL');
    db.exec(`CREATE TABLE IF NOT EXISTS answers (
      kind TEXT NOT NULL,
      key TEXT NOT NULL,
      value TEXT NOT NULL,
      created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
      PRIMARY KEY (kind, key)
    ) WITHOUT ROWID`);
    return db;
  } catch (err) {
    db?.close();
    if (err instanceof CacheError) throw err;
    throw new CacheError(path, 'cannot be opened', err);
  }
}

/**
 * Opens (creating it and its folder if needed) the SQLite answer cache at `path`. Throws
 * CacheError when the file cannot be created or opened, or is truncated or not SQLite.
 * @example
 * ```ts
 * const cache = openCache('.rubrica/cache.sqlite');
 * const judge = createJudge({ client, cache });
 * ```
 */
export function openCache(path: string = DEFAULT_CACHE_PATH): SqliteAnswerCache {
  const db = openDatabase(path);
  const guard = <T>(what: string, f: () => T): T => {
    try {
      return f();
    } catch (err) {
      throw new CacheError(path, what, err);
    }
  };
  const prepare = <P extends unknown[], R>(sql: string) => {
    try {
      return db.prepare<P, R>(sql);
    } catch (err) {
      db.close();
      throw new CacheError(path, 'cannot be opened', err);
    }
  };
  const getStmt = prepare<[string, string], { value: string }>(
    'SELECT value FROM answers WHERE kind = ? AND key = ?',
  );
  const setStmt = prepare<[string, string, string], unknown>(
    'INSERT OR IGNORE INTO answers (kind, key, value) VALUES (?, ?, ?)',
  );
  const countStmt = prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM answers WHERE kind = ?',
  );
  let open = true;
  return {
    get<T>(kind: CacheKind, key: string): T | undefined {
      const row = guard('could not be read', () => getStmt.get(kind, key));
      if (!row) return undefined;
      // A value that is not JSON was not written by this cache: the file is damaged.
      return guard('holds an unreadable entry', () => JSON.parse(row.value) as T);
    },
    set(kind, key, value) {
      guard('could not be written', () => setStmt.run(kind, key, JSON.stringify(value)));
    },
    count(kind) {
      return guard('could not be read', () => countStmt.get(kind)?.n ?? 0);
    },
    close() {
      if (open) db.close();
      open = false;
    },
  };
}
