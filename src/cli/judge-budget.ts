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

/** The batch commands' judge budget flags (`serve` has its own: --concurrency is the budget). */
export function addJudgeBudgetFlags<C extends { option(flags: string, description: string): C }>(
  cmd: C,
): C {
  return cmd
    .option(
      '--judge-concurrency <n>',
      'judge calls in flight at once; with --cache redis://… over every process using the same judge (serve replicas included: give them all the same number)',
    )
    .option(
      '--judge-rpm <n>',
      'judge requests per minute over every process (needs --cache redis://… and --judge-concurrency)',
    )
    .option(
      '--judge-tpm <n>',
      'judge tokens per minute over every process (needs --cache redis://… and --judge-concurrency)',
    );
}

export interface BatchBudgetFlags {
  judge?: string;
  judgeBaseUrl?: string;
  judgeConcurrency?: string;
  judgeRpm?: string;
  judgeTpm?: string;
}

/**
 * A batch command's judge limit: `concurrency` is its judge client's own limit (the
 * command's default unless --judge-concurrency), `gate` the shared budget it joins when
 * --judge-concurrency is given with a redis:// cache. Without --judge-concurrency a batch job
 * keeps its own limit: its default (rollouts × 6) is no number the replicas would agree on.
 */
export function batchJudgeBudget(
  f: BatchBudgetFlags,
  cache: string | false | undefined,
  fallback: number,
): { concurrency: number; gate: CallGate | undefined } {
  const rpm = budgetCount('--judge-rpm', f.judgeRpm, 0, 0);
  const tpm = budgetCount('--judge-tpm', f.judgeTpm, 0, 0);
  if (f.judgeConcurrency === undefined) {
    if (rpm > 0 || tpm > 0)
      throw new UsageError(
        '--judge-rpm/--judge-tpm need --judge-concurrency (and --cache redis://…)',
      );
    return { concurrency: fallback, gate: undefined };
  }
  const concurrency = budgetCount('--judge-concurrency', f.judgeConcurrency, 1, fallback);
  const gate = sharedJudgeGate({ ...f, cache, concurrency, judgeRpm: rpm, judgeTpm: tpm });
  return { concurrency, gate };
}
