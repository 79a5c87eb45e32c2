// One cached, de-duplicated judge call, as the VLM judge does it (src/judge/judge.ts): look
// the key up in the answer cache; else join a call already running for the same key
// (identical samples in a batch are judged once, the tokens counted on one record); else
// call and store. Failures are values: the model's failure is a `judge_error` fault, a
// cache that cannot be read or written a `cache_error` fault (an answer that cannot be
// stored is not a silent success: the operator must hear the cache is broken).
import { emptyUsage, type Usage } from '../core/usage.ts';
import type { AnswerCache } from '../store/cache.ts';
import { isCacheError } from '../store/cache-error.ts';
import type { JudgeFault } from './judge.ts';
import { createSharedCalls } from './shared-calls.ts';

export type Asked<T> =
  | { ok: true; value: T; usage: Usage; cached: boolean }
  | { ok: false; fault: JudgeFault; message: string; usage: Usage; cached: false };

export type Call<T> = (
  signal: AbortSignal,
) => Promise<{ ok: true; value: T; usage: Usage } | { ok: false; message: string; usage: Usage }>;

const fault = <T>(f: JudgeFault, message: string, usage = emptyUsage()): Asked<T> => ({
  ok: false,
  fault: f,
  message,
  usage,
  cached: false,
});

export function createCachedAsk<T>(cache: AnswerCache | null) {
  const shared = createSharedCalls<Asked<T>>();
  const run = async (key: string, call: Call<T>, signal: AbortSignal): Promise<Asked<T>> => {
    const res = await call(signal);
    if (!res.ok) return fault('judge_error', res.message, res.usage);
    try {
      await cache?.set('judge', key, res.value);
    } catch (err) {
      if (!isCacheError(err)) throw err;
      return fault('cache_error', err.message, res.usage);
    }
    return { ok: true, value: res.value, usage: res.usage, cached: false };
  };
  return async (key: string, call: Call<T>, signal?: AbortSignal): Promise<Asked<T>> => {
    let hit: T | undefined;
    try {
      hit = await cache?.get<T>('judge', key);
    } catch (err) {
      if (!isCacheError(err)) throw err;
      return fault('cache_error', err.message);
    }
    if (hit !== undefined) return { ok: true, value: hit, usage: emptyUsage(), cached: true };
    const out = await shared.run(key, (s) => run(key, call, s), signal);
    if ('aborted' in out) return fault('judge_error', 'aborted: the caller went away');
    if (out.owner) return out.value;
    const v = out.value;
    return v.ok ? { ...v, usage: emptyUsage(), cached: true } : { ...v, usage: emptyUsage() };
  };
}
