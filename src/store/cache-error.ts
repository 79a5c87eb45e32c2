// The one error the answer cache throws. A cache file that is corrupted, truncated, not a
// database, unreadable or full is a fault of the grader's storage, never of a rollout: it
// names the file and the way around it (`--no-cache`), so an operator can act on one line.
// The judge turns it into a `grader_error` with reason `cache_error` when it happens
// mid-run; at start-up the CLI prints it and exits 1.
import { RubricaError } from '../core/errors.ts';

/** SQLite result codes that may clear up on their own (another process holds a lock). */
const TRANSIENT = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED']);

/**
 * The answer cache could not be opened, read or written (code `cache_error`); `isRetryable` when
 * SQLite reports a lock another process holds.
 */
export class CacheError extends RubricaError<'cache_error'> {
  /** The cache file, as given. */
  readonly path: string;
  /** SQLite's own code (SQLITE_CORRUPT, SQLITE_NOTADB, …) when there was one. */
  readonly sqliteCode: string | undefined;
  /** `remedy`: the way around it, for a command whose flags differ (judge-proxy has no --no-cache). */
  constructor(
    path: string,
    what: string,
    cause?: unknown,
    remedy = 'move or delete the file, point --cache at another file, or run with --no-cache',
  ) {
    const sqliteCode = (cause as { code?: unknown } | undefined)?.code;
    const code = typeof sqliteCode === 'string' ? sqliteCode : undefined;
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    super(
      'cache_error',
      `answer cache ${path} ${what}${detail}${code ? ` (${code})` : ''}; ${remedy}`,
      { retryable: code !== undefined && TRANSIENT.has(code), cause },
    );
    this.path = path;
    this.sqliteCode = code;
  }
}

export function isCacheError(err: unknown): err is CacheError {
  return err instanceof CacheError;
}
