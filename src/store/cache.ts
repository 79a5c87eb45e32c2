// A content-addressed answer cache in SQLite: model answers are stored under a key that
// hashes everything that could change them (model, prompt-file version, mode, rubric,
// image), so a hit is always safe to reuse. WAL mode plus a busy timeout lets several
// processes write the same file; INSERT OR IGNORE makes racing writers of one key
// harmless (both computed the same answer).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export const DEFAULT_CACHE_PATH = '.rubrica/cache.sqlite';

export type CacheKind = 'judge' | 'author';

export interface AnswerCache {
  get<T>(kind: CacheKind, key: string): T | undefined;
  set(kind: CacheKind, key: string, value: unknown): void;
  /** Number of stored entries of a kind (tests, reports). */
  count(kind: CacheKind): number;
  close(): void;
}

export function openCache(path: string = DEFAULT_CACHE_PATH): AnswerCache {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
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
  const getStmt = db.prepare<[string, string], { value: string }>(
    'SELECT value FROM answers WHERE kind = ? AND key = ?',
  );
  const setStmt = db.prepare('INSERT OR IGNORE INTO answers (kind, key, value) VALUES (?, ?, ?)');
  const countStmt = db.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM answers WHERE kind = ?',
  );
  let open = true;
  return {
    get<T>(kind: CacheKind, key: string): T | undefined {
      const row = getStmt.get(kind, key);
      return row ? (JSON.parse(row.value) as T) : undefined;
    },
    set(kind, key, value) {
      setStmt.run(kind, key, JSON.stringify(value));
    },
    count(kind) {
      return countStmt.get(kind)?.n ?? 0;
    },
    close() {
      if (open) db.close();
      open = false;
    },
  };
}
