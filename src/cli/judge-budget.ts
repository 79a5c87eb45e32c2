// The judge budget a process draws from. With a shared store (`--cache redis://…`) it is one
// budget over every process that uses the same judge (model and base URL): `serve` replicas
// and `score`/`eval` batch jobs alike, each giving the same limits, so together they never
// send the judge more than it can take. Without one, the judge client keeps its own
// per-process limit, and a rate limit has nothing to be counted in (a usage error).
import { type CallGate, createSharedBudget } from '../models/shared-budget.ts';
import { cacheKey } from '../store/keys.ts';
import { isRedisUrl } from '../store/redis-cache.ts';
import { UsageError } from './usage-error.ts';

export interface JudgeBudgetFlags {
  judge?: string;
  judgeBaseUrl?: string;
  /** The --cache value: a SQLite path, a redis:// URL, false (--no-cache) or unset. */
  cache: string | false | undefined;
  /** Judge calls in flight at once (over every process sharing the budget). */
  concurrency: number;
  judgeRpm: number;
  judgeTpm: number;
}

/** The shared gate for these flags, or undefined (the client's own limit) without redis://. */
export function sharedJudgeGate(f: JudgeBudgetFlags): CallGate | undefined {
  if (!f.judge || typeof f.cache !== 'string' || !isRedisUrl(f.cache)) {
    if (f.judge && (f.judgeRpm > 0 || f.judgeTpm > 0))
      throw new UsageError('--judge-rpm/--judge-tpm need a shared store: --cache redis://…');
    return undefined;
  }
  return createSharedBudget({
    url: f.cache,
    // Processes agree on the name from what they were given, so the same judge flags
    // (or the same RUBRICA_JUDGE_BASE_URL with no flag) share one budget.
    name: cacheKey(['judge-budget', f.judge, f.judgeBaseUrl ?? '']).slice(0, 16),
    concurrency: f.concurrency,
    requestsPerMinute: f.judgeRpm,
    tokensPerMinute: f.judgeTpm,
  });
}

/** A count flag ≥ `min` (0 turns a rate limit off), or `fallback` when not given. */
export function budgetCount(name: string, raw: string | undefined, min: number, fallback: number) {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
}
