// Parsers for the flags several commands share (counts, units, judge timeouts and retries,
// the answer cache), each turning a bad value into a UsageError (exit 2).
import { ModelConfigError } from '../models/errors.ts';
import { type AnswerCache, DEFAULT_CACHE_PATH } from '../store/cache.ts';
import { isCacheError } from '../store/cache-error.ts';
import { checkAnswerCache, openAnswerCache } from '../store/open-cache.ts';
import { reportCircuit } from './preflight.ts';
import { UsageError } from './usage-error.ts';

export function parseCount(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${name} must be an integer ≥ 1, got "${raw}"`);
  return n;
}

export function parseRetries(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`--judge-retries must be an integer ≥ 0, got "${raw}"`);
  return n;
}

/** The judge client's timeout and retries from the shared flags (defaults: the client's). */
export function judgeCallFlags(flags: { judgeTimeout?: string; judgeRetries?: string }) {
  const out: { timeoutMs?: number; maxRetries?: number; onCircuitChange: typeof reportCircuit } = {
    onCircuitChange: reportCircuit,
  };
  if (flags.judgeTimeout !== undefined)
    out.timeoutMs = parseCount('--judge-timeout', flags.judgeTimeout, 0);
  const retries = parseRetries(flags.judgeRetries);
  if (retries !== undefined) out.maxRetries = retries;
  return out;
}

export function parseUnit(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || n > 1)
    throw new UsageError(`${name} must be in [0,1], got "${raw}"`);
  return n;
}

export function parseMode(raw: string | undefined): 'joint' | 'per-item' {
  if (raw === undefined || raw === 'joint' || raw === 'per-item') return raw ?? 'joint';
  throw new UsageError(`--mode must be joint or per-item, got "${raw}"`);
}

/** Model config problems (bad spec, bad URL, missing key) are usage errors: exit 2. */
export function asUsage<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof ModelConfigError) throw new UsageError(err.message);
    throw err;
  }
}

export function openCacheFlag(flags: { cache: boolean | string }): AnswerCache | null {
  const path = cachePathFlag(flags);
  return path === false ? null : openAnswerCache(path);
}

/** `--cache FILE` / `--no-cache` as the library takes it: the cache's path, or false
 * (commander gives true when neither flag is used: then the default path). */
export function cachePathFlag(flags: { cache: boolean | string }): string | false {
  if (flags.cache === false) return false;
  return typeof flags.cache === 'string' ? flags.cache : DEFAULT_CACHE_PATH;
}

/**
 * A shared cache (`--cache redis://…`) that cannot be reached at start is a usage error
 * (one line, exit 2) before any work: never a run that silently judges everything again.
 */
export async function checkCacheReachable(spec: string | false): Promise<void> {
  try {
    await checkAnswerCache(spec);
  } catch (err) {
    if (isCacheError(err)) throw new UsageError(`--cache: ${err.message.split('; ')[0]}`);
    throw err;
  }
}

/** cachePathFlag, after checking that a shared cache answers. */
export async function cacheFlag(flags: { cache: boolean | string }): Promise<string | false> {
  const spec = cachePathFlag(flags);
  await checkCacheReachable(spec);
  return spec;
}

/** A commander option parser for an integer ≥ `min` (a usage error naming the flag else). */
export function intOption(name: string, min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min)
      throw new UsageError(`${name} must be an integer ≥ ${min}`);
    return n;
  };
}
